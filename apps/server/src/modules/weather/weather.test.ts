import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, Header, sessionCredential, WEATHER_FORECAST_HOURS, WEATHER_GRID_MAX_POINTS, WeatherForecastSchema, WeatherPointSchema } from '@wildtrack/contract';
import { DEFAULT_WEATHER_URL, loadConfig } from '../../config.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { WEATHER_TTL_MS, WeatherService } from './service.js';
import { startWeatherStub, type WeatherStub } from '../../test/weather-stub.js';

const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z, seconds

describe.each(DIALECTS)('weather calls on %s', (dialect) => {
  let stub: WeatherStub;
  let t: TestApp;
  let offline: TestApp;
  beforeAll(async () => {
    stub = await startWeatherStub({ now: NOW, missingHour: 1 });
    [t, offline] = await Promise.all([
      createTestApp(dialect, { WEATHER_URL: stub.url }),
      // A closed port on this machine: as a station without a network sees the internet.
      createTestApp(dialect),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t.close(), offline.close()]);
    await stub.close();
  });

  it('answers the weather now over a grid from the source, in the order asked, one fetch for the grid', async () => {
    const { token } = await t.userWithToken();
    const before = stub.requests.length;
    const points = [
      { lat: 52.5, lng: 13.4 },
      { lat: 40, lng: -3.7 },
      { lat: -33.9, lng: 151.2 },
    ];
    const { body } = await t.call(calls.GetWeatherGrid.path, { points }, { token });
    expect(body.Code).toBe(Code.Success);
    const data = calls.GetWeatherGrid.data.parse(body.Data);
    expect(data.Points.map((p) => WeatherPointSchema.parse(p))).toEqual([
      { Lat: 52.5, Lng: 13.4, Time: NOW * 1000, Temperature: 26.25, WindSpeed: 1.34, WindDirection: 270, Precipitation: 0.4 },
      { Lat: 40, Lng: -3.7, Time: NOW * 1000, Temperature: 20, WindSpeed: 0.37, WindDirection: 270, Precipitation: 0.4 },
      { Lat: -33.9, Lng: 151.2, Time: NOW * 1000, Temperature: -16.95, WindSpeed: 15.12, WindDirection: 270, Precipitation: 0.4 },
    ]);
    expect(stub.requests.length - before).toBe(1);
    const asked = stub.requests.at(-1)!;
    expect(asked.pathname).toBe('/v1/forecast');
    expect(asked.searchParams.get('latitude')).toBe('52.50,40.00,-33.90');
    expect(asked.searchParams.get('longitude')).toBe('13.40,-3.70,151.20');
    expect(asked.searchParams.get('wind_speed_unit')).toBe('ms');
    expect(asked.searchParams.get('timeformat')).toBe('unixtime');
  });

  it('keeps what it fetched: a second console asking the same and nearby points makes no fetch', async () => {
    const a = await t.userWithToken();
    const b = await t.userWithToken();
    const points = [{ lat: 10.111, lng: 20.222 }, { lat: 11, lng: 21 }];
    expect((await t.call(calls.GetWeatherGrid.path, { points }, { token: a.token })).body.Code).toBe(Code.Success);
    const before = stub.requests.length;
    // 10.112 rounds to the same 0.01° cell as 10.111
    const again = await t.call(calls.GetWeatherGrid.path, { points: [{ lat: 11, lng: 21 }, { lat: 10.112, lng: 20.221 }] }, { token: b.token });
    expect(again.body.Code).toBe(Code.Success);
    expect(stub.requests.length).toBe(before);
    expect(calls.GetWeatherGrid.data.parse(again.body.Data).Points.map((p) => [p.Lat, p.Lng, p.Temperature])).toEqual([
      [11, 21, 5.5],
      [10.112, 20.221, 5.055],
    ]);
  });

  it('answers a point forecast: now and the next hours, a missing value null', async () => {
    const { token } = await t.userWithToken();
    const { body } = await t.call(calls.GetWeatherPoint.path, { lat: 30, lng: -100 }, { token });
    expect(body.Code).toBe(Code.Success);
    const data = WeatherForecastSchema.parse(body.Data);
    expect(data.Lat).toBe(30);
    expect(data.Current).toEqual({ Time: NOW * 1000, Temperature: 15, WindSpeed: 10, WindDirection: 270, Precipitation: 0.4 });
    expect(data.Hours).toHaveLength(WEATHER_FORECAST_HOURS);
    expect(data.Hours[0]).toEqual({ Time: NOW * 1000, Temperature: 15, WindSpeed: 10, WindDirection: 270, Precipitation: 0 });
    expect(data.Hours[1]!.Precipitation).toBeNull();
    expect(data.Hours[2]!.Time).toBe((NOW + 7200) * 1000);
    expect(stub.requests.at(-1)!.searchParams.get('forecast_hours')).toBe(String(WEATHER_FORECAST_HOURS));
  });

  it('answers "weather data loading failed" (1001, not 500) quickly when the source is out of reach, in the language', async () => {
    const { token } = await offline.userWithToken();
    // a hang guard on a real socket (not a budget: those are in bench/), timed on the monotonic clock
    const started = performance.now();
    const en = await offline.call(calls.GetWeatherPoint.path, { lat: 1, lng: 2 }, { token });
    expect(en.res.statusCode).toBe(200);
    expect(en.body).toMatchObject({ Code: Code.Failed, Msg: 'Weather data loading failed' });
    const zh = await offline.call(calls.GetWeatherGrid.path, { points: [{ lat: 1, lng: 2 }] }, { token, lang: 'zh' });
    expect(zh.body).toMatchObject({ Code: Code.Failed, Msg: '天气数据加载失败' });
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('gives up on a source that does not answer within its timeout, and on an answer that is not a forecast', async () => {
    const { token } = await t.userWithToken();
    stub.mode = 'hang';
    try {
      // the source's real timeout, guarded on the monotonic clock (not a budget: those are in bench/)
      const started = performance.now();
      const { body } = await t.call(calls.GetWeatherPoint.path, { lat: 5, lng: 6 }, { token });
      expect(body).toMatchObject({ Code: Code.Failed, Msg: 'Weather data loading failed' });
      expect(performance.now() - started).toBeLessThan(8000);
      stub.mode = 'garbage';
      expect((await t.call(calls.GetWeatherPoint.path, { lat: 5, lng: 6 }, { token })).body.Code).toBe(Code.Failed);
    } finally {
      stub.mode = 'ok';
    }
    // A failure is not kept: the next call asks again and gets the weather.
    expect((await t.call(calls.GetWeatherPoint.path, { lat: 5, lng: 6 }, { token })).body.Code).toBe(Code.Success);
  }, 20_000);

  it('refuses a position out of range and too many points, naming the field, without asking the source', async () => {
    const { token } = await t.userWithToken();
    const before = stub.requests.length;
    const lat = await t.call(calls.GetWeatherPoint.path, { lat: 90.5, lng: 0 }, { token });
    expect(lat.body).toMatchObject({ Code: Code.Invalid, Msg: 'The latitude must be between -90 and 90.', Data: { Field: 'lat' } });
    const lng = await t.call(calls.GetWeatherGrid.path, { points: [{ lat: 0, lng: 0 }, { lat: 0, lng: -181 }] }, { token, lang: 'zh' });
    expect(lng.body).toMatchObject({ Code: Code.Invalid, Msg: '经度须在 -180 到 180 之间。', Data: { Field: 'points[1].lng' } });
    const many = Array.from({ length: WEATHER_GRID_MAX_POINTS + 1 }, (_, i) => ({ lat: i / 10, lng: 0 }));
    const tooMany = await t.call(calls.GetWeatherGrid.path, { points: many }, { token });
    expect(tooMany.body).toMatchObject({ Code: Code.Invalid, Msg: `The grid points can hold at most ${WEATHER_GRID_MAX_POINTS} items.`, Data: { Field: 'points' } });
    const none = await t.call(calls.GetWeatherGrid.path, { points: [] }, { token });
    expect(none.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'points' } });
    const text = await t.call(calls.GetWeatherPoint.path, { lat: '1', lng: 2 }, { token });
    expect(text.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'lat' } });
    expect(stub.requests.length).toBe(before);
  });

  it('refuses without a token, with a stranger token and unsigned, without asking the source', async () => {
    const before = stub.requests.length;
    const body = { lat: 7, lng: 8 };
    expect((await t.call(calls.GetWeatherPoint.path, body)).body.Code).toBe(Code.SessionExpired);
    expect((await t.call(calls.GetWeatherGrid.path, { points: [body] })).body.Code).toBe(Code.SessionExpired);
    expect((await t.call(calls.GetWeatherPoint.path, body, { token: sessionCredential('A'.repeat(22), 'not-a-session') })).body.Code).toBe(Code.SessionExpired);
    const { token } = await t.userWithToken();
    const unsigned = await t.call(calls.GetWeatherPoint.path, body, { token, headers: { [Header.signature]: undefined } });
    expect(unsigned.body.Code).not.toBe(Code.Success);
    expect(stub.requests.length).toBe(before);
  });
});

describe('the weather source shared by the consoles', () => {
  let stub: WeatherStub;
  beforeAll(async () => {
    stub = await startWeatherStub({ now: NOW });
  });
  afterAll(async () => stub.close());

  it('asks once for consoles asking at the same time, again once a point is older than its 5 minutes', async () => {
    let now = 1_000_000;
    const weather = new WeatherService(stub.url, { now: () => now });
    const before = stub.requests.length;
    const grid = [{ lat: 60, lng: 10 }, { lat: 61, lng: 11 }];
    // Three consoles at once: the grid, part of it, and one point of it.
    const answers = await Promise.all([weather.grid(grid), weather.grid([grid[1]!]), weather.point(60, 10)]);
    expect(stub.requests.length - before).toBe(1);
    expect(answers[0].Points.map((p) => p.Temperature)).toEqual([30, 30.5]);
    expect(answers[1].Points[0]!.Temperature).toBe(30.5);
    expect(answers[2].Current.Temperature).toBe(30);
    now += WEATHER_TTL_MS - 1;
    await weather.grid(grid);
    expect(stub.requests.length - before).toBe(1);
    now += 1;
    await weather.grid(grid);
    expect(stub.requests.length - before).toBe(2);
  });

  it('fails every console waiting on a fetch that fails, and says why to its log', async () => {
    const reasons: string[] = [];
    const weather = new WeatherService(stub.url, { onFailure: (r) => reasons.push(r) });
    stub.mode = 'garbage';
    try {
      const results = await Promise.allSettled([weather.point(-10, -20), weather.grid([{ lat: -10, lng: -20 }])]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toMatch(/JSON|not a forecast/);
    } finally {
      stub.mode = 'ok';
    }
  });
});

describe('weather configuration', () => {
  it("defaults to Open-Meteo's keyless forecast API and refuses a non-http address, naming the variable", () => {
    expect(loadConfig({}).weatherUrl).toBe(DEFAULT_WEATHER_URL);
    expect(loadConfig({ WEATHER_URL: 'http://weather.station.local/v1/forecast' }).weatherUrl).toBe('http://weather.station.local/v1/forecast');
    expect(() => loadConfig({ WEATHER_URL: 'ftp://x/forecast' })).toThrow(/WEATHER_URL/);
  });
});
