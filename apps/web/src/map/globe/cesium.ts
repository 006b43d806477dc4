import { buildModuleUrl, CreditDisplay, Ion, type Credit } from 'cesium';
import 'cesium/Build/Cesium/Widgets/CesiumWidget/CesiumWidget.css';

/**
 * CesiumJS set up for a console that must work offline: its workers and textures come from this
 * server (copied into dist/cesium by the build, see vite.config.ts), and Cesium's ion service is never
 * asked for anything: no token, so any code path that would need ion fails here instead of calling out.
 */
(globalThis as { CESIUM_BASE_URL?: string }).CESIUM_BASE_URL = `${import.meta.env.BASE_URL}cesium/`;
Ion.defaultAccessToken = '';
/**
 * No "Cesium ion" logo: the globe uses no ion service (its imagery is bundled Natural Earth II and the
 * user's chosen tile layers, whose own credits still show), so the default ion credit is not shown.
 */
CreditDisplay.cesiumCredit = undefined as unknown as Credit;

/** The bundled Natural Earth II imagery (levels 0-2), the base layer that needs no network. */
export const NATURAL_EARTH_URL = (): string => buildModuleUrl('Assets/Textures/NaturalEarthII');
