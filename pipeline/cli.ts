// The operator's CLI (contract, "Operator interface"): `npm run cli -- <command>`. It reads the same environment
// as the server (DATA_DIR and the rest), so what it writes is what `make run` serves.
import { Command } from 'commander';
import { registerAccountCommands } from '../server/accountsCli.js';
import { loadConfig } from '../server/config.js';
import { formatCatalogReport, runCatalogBuild } from './catalog/catalogBuild.js';
import { CatalogInputError } from './catalog/sources.js';

const program = new Command('cli').description('Prayer Times API operator commands').showHelpAfterError();

const catalog = program.command('catalog').description('the catalog of places (cities and Turkish districts)');
catalog
  .command('build')
  .description('build DATA_DIR/catalog/catalog.msgpack from the pinned data packages; a failure keeps the old one')
  .action(() => {
    const { dataDir } = loadConfig();
    try {
      const result = runCatalogBuild(dataDir);
      process.stdout.write(formatCatalogReport(result) + '\n');
    } catch (error) {
      if (error instanceof CatalogInputError) {
        process.stderr.write(`catalog build failed: ${error.message}\nThe previous catalog, if any, is unchanged.\n`);
        process.exitCode = 1;
        return;
      }
      throw error;
    }
  });

registerAccountCommands(program);

await program.parseAsync(process.argv);
