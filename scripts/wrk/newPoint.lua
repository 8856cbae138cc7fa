-- A new point on every request, as a mobile app's users send their own coordinates: near one of the places listed in
-- a file (a jitter of up to about 20 km), or anywhere on the inhabited globe (55° S to 70° N, uniform in area).
-- Five decimals, and a per-thread random stream: no two requests of a run ask for the same point.
-- Usage: wrk -s newPoint.lua <url of the server> -- <path with ?…&, e.g. /api/v1/times?date=2026-11-22&> near|globe [places file]
local path, mode, places = "/api/v1/times?", "globe", {}

function init(args)
  path = args[1] or path
  mode = args[2] or mode
  if mode == "near" then
    for line in io.lines(args[3]) do
      local lat, lon = line:match("^(%S+) (%S+)$")
      places[#places + 1] = { tonumber(lat), tonumber(lon) }
    end
  end
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000)
end

local function point()
  if mode == "near" then
    local p = places[math.random(#places)]
    return p[1] + (math.random() - 0.5) * 0.36, p[2] + (math.random() - 0.5) * 0.36
  end
  local south, north = math.sin(math.rad(-55)), math.sin(math.rad(70))
  return math.deg(math.asin(south + math.random() * (north - south))), math.random() * 360 - 180
end

request = function()
  local lat, lon = point()
  return wrk.format("GET", string.format("%slat=%.5f&lon=%.5f", path, lat, lon))
end
