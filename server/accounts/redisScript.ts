// A Lua script that runs on Redis atomically: sent by its SHA (EVALSHA), and in full when Redis does not know it (a
// restarted Redis has an empty script cache), through ioredis's defineCommand. Each store declares its scripts with
// this, so the atomic read-then-write steps of fleet mode read as a table of named scripts.
import type { ChainableCommander, Redis } from 'ioredis';

let scriptNumber = 0;

export class RedisScript {
  private readonly name = `ptScript${++scriptNumber}`;

  /** A script of `numberOfKeys` keys (the first arguments, for Redis Cluster's routing) and any number of values. */
  constructor(
    private readonly numberOfKeys: number,
    private readonly lua: string,
  ) {}

  /** Makes the script known to a connection (before any pipeline of it is made: pipelines copy the definitions). */
  define(redis: Redis): this {
    redis.defineCommand(this.name, { numberOfKeys: this.numberOfKeys, lua: this.lua });
    return this;
  }

  run(redis: Redis | ChainableCommander, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    if (keys.length !== this.numberOfKeys) throw new Error(`script: ${this.numberOfKeys} keys expected, ${keys.length} given`);
    const command = (redis as unknown as Record<string, (...values: Array<string | number>) => Promise<unknown>>)[this.name];
    if (typeof command !== 'function') throw new Error('script not defined on this connection (RedisScript.define)');
    return command.call(redis, ...keys, ...args);
  }
}
