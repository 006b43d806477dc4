import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DEFAULT_TILE_LAYERS, Header, sessionCredential, TileLayersSchema } from '@wildtrack/contract';
import { ConfigError, loadConfig } from '../../config.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';

describe.each(DIALECTS)('map calls on %s', (dialect) => {
  let t: TestApp;
  let custom: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    custom = await createTestApp(dialect, {
      MAP_TILES_STREET: 'https://tiles.station.local/osm/{z}/{x}/{y}.png, https://tiles2.station.local/osm/{z}/{x}/{y}.png',
    });
  });
  afterAll(async () => {
    await t.close();
    await custom.close();
  });

  it('answers the keyless default tile layers to a signed-in user', async () => {
    const { token } = await t.userWithToken();
    const { body } = await t.call(calls.GetTileLayers.path, {}, { token });
    expect(body.Code).toBe(Code.Success);
    expect(TileLayersSchema.parse(body.Data)).toEqual(DEFAULT_TILE_LAYERS);
  });

  it("answers the station's own URL templates where the environment names them", async () => {
    const { token } = await custom.userWithToken();
    const data = TileLayersSchema.parse((await custom.call(calls.GetTileLayers.path, {}, { token })).body.Data);
    expect(data.Street).toEqual({
      Tiles: ['https://tiles.station.local/osm/{z}/{x}/{y}.png', 'https://tiles2.station.local/osm/{z}/{x}/{y}.png'],
      Attribution: '',
      MaxZoom: 19,
    });
    expect(data.Satellite).toEqual(DEFAULT_TILE_LAYERS.Satellite);
  });

  it('refuses without a token, with a stranger token and unsigned', async () => {
    expect((await t.call(calls.GetTileLayers.path, {})).body.Code).toBe(Code.SessionExpired);
    expect((await t.call(calls.GetTileLayers.path, {}, { token: sessionCredential('A'.repeat(22), 'not-a-session') })).body.Code).toBe(Code.SessionExpired);
    const { token } = await t.userWithToken();
    const unsigned = await t.call(calls.GetTileLayers.path, {}, { token, headers: { [Header.signature]: undefined } });
    expect(unsigned.body.Code).not.toBe(Code.Success);
  });
});

describe('map tile configuration', () => {
  it('refuses a template without {z}/{x}/{y}, naming the variable', () => {
    expect(() => loadConfig({ MAP_TILES_SATELLITE: 'https://tiles.local/sat.png' })).toThrow(ConfigError);
    expect(() => loadConfig({ MAP_TILES_TERRAIN: 'ftp://x/{z}/{x}/{y}' })).toThrow(/MAP_TILES_TERRAIN/);
  });
});
