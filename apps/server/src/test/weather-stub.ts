import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local forecast source answering as Open-Meteo's forecast API does (timeformat=unixtime; one location
 * an object, several a list), for the weather calls' route tests and e2e/src/weather.spec.ts (WEATHER_URL
 * pointed at it). Each value is made from the position so that a test can tell the points apart:
 * temperature = latitude / 2 °C (+1 °C each forecast hour), wind |longitude| / 10 m/s from the west
 * (270°), precipitation 0.4 mm now and h / 10 mm in forecast hour h (none given in hour `missingHour`).
 */
export interface WeatherStub {
  /** The forecast endpoint to give as WEATHER_URL. */
  url: string;
  /** Every request, in order. */
  requests: URL[];
  /**
   * 'ok'; 'hang' never answers (the server's timeout must cut it); 'garbage' answers a captive portal's
   * page; 'down' drops the connection (the source out of reach).
   */
  mode: 'ok' | 'hang' | 'garbage' | 'down';
  close(): Promise<void>;
}

/** `now`: the current time the source reports, epoch seconds. */
export async function startWeatherStub(opts: { now: number; missingHour?: number }): Promise<WeatherStub> {
  const hanging: ServerResponse[] = [];
  const stub: WeatherStub = { url: '', requests: [], mode: 'ok', close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    stub.requests.push(url);
    if (stub.mode === 'down') {
      req.socket.destroy();
      return;
    }
    if (stub.mode === 'hang') {
      hanging.push(res);
      return;
    }
    if (stub.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>captive portal</html>');
      return;
    }
    const lats = (url.searchParams.get('latitude') ?? '').split(',').map(Number);
    const lngs = (url.searchParams.get('longitude') ?? '').split(',').map(Number);
    const hours = Number(url.searchParams.get('forecast_hours') ?? 24);
    const locations = lats.map((lat, i) => {
      const lng = lngs[i]!;
      const time = Array.from({ length: hours }, (_, h) => opts.now + h * 3600);
      return {
        latitude: lat,
        longitude: lng,
        current: { time: opts.now, interval: 900, temperature_2m: lat / 2, wind_speed_10m: Math.abs(lng) / 10, wind_direction_10m: 270, precipitation: 0.4 },
        hourly: {
          time,
          temperature_2m: time.map((_, h) => lat / 2 + h),
          wind_speed_10m: time.map(() => Math.abs(lng) / 10),
          wind_direction_10m: time.map(() => 270),
          precipitation: time.map((_, h) => (h === opts.missingHour ? null : h / 10)),
        },
      };
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(locations.length === 1 ? locations[0] : locations));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/forecast`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}
