import {
  BatteryType,
  DeviceType,
  type InstrSupportName,
  SENSOR_KIND_NAMES,
  SENSOR_KINDS,
  type SensorFlagName,
  type SensorKindName,
  SpeciesType,
} from '@wildtrack/contract';
import type { LonLat } from './geo.js';

/**
 * Device profiles: what a device is (its registration metadata) and how the animal or person carrying it
 * behaves. Places are real: the Oriental stork flyway of East Asia from the Sanjiang Plain to Poyang Lake,
 * sika deer in the Hunchun reserve, spotted seals of Liaodong Bay, and the fisher study area of the
 * Movebank data in shared/data (Martes pennanti LaPoint New York, around 42.8 N -73.86 W).
 */

export type ProfileId = 'stork' | 'deer' | 'seal' | 'fisher' | 'vhf' | 'phone';

/** What the animal (or person) is doing; drives acceleration, speed, activity counts and power use. */
export type Behaviour = 'rest' | 'forage' | 'walk' | 'run' | 'flap' | 'soar' | 'swim' | 'surface' | 'still' | 'carried';

export interface Site extends LonLat {
  name: string;
  /** Ground elevation, metres above sea level. */
  elev: number;
  /** How long the bird stays, days (min, max), drawn per visit; [0, 0] for a waypoint it flies over. */
  stayDays: [number, number];
}

/** Days of the year (1 = 1 January), earliest and latest. */
export type DayRange = [number, number];

export type MotionSpec =
  | {
      kind: 'migrant';
      /** From the breeding site to the wintering site: stopovers, and waypoints that keep the path over land. */
      route: Site[];
      /** When the bird leaves and reaches its sites (the stopovers share what lies between). */
      calendar: { autumnDepart: DayRange; autumnArrive: DayRange; springDepart: DayRange; springArrive: DayRange };
      /** Local solar hour the day's flight starts, and its length in hours. */
      flightStart: number;
      flightHours: number;
      /** Distance flown on a flight day, km (min, max). */
      dailyKm: [number, number];
      /** Foraging radius around a stopover site, m. */
      stayRadius: number;
      /** Thermal-soaring ceiling above ground at midday, m (min, max). */
      ceiling: [number, number];
    }
  | {
      kind: 'homeRange';
      centre: LonLat;
      radius: number;
      elev: { base: number; relief: number };
      /** When the animal is active. */
      activity: 'crepuscular' | 'nocturnal';
      /** Speeds of the moving behaviours, m/s. */
      speeds: { forage: number; walk: number; run: number };
      /** Sky obstruction (0 open .. 1 closed) while moving and while resting (dens, thickets). */
      canopy: { active: number; rest: number };
    }
  | {
      kind: 'diver';
      /** Haul-out sandbar. */
      haulout: LonLat;
      /** Bearings (deg) in which open water lies from the haul-out, and how far foraging patches are, km. */
      seaBearings: [number, number];
      patchKm: [number, number];
      /** Sea floor depth: metres at the haul-out plus metres per km offshore, capped. */
      floor: { shore: number; perKm: number; max: number };
    }
  | { kind: 'station'; site: LonLat; elev: number; mast: number }
  | { kind: 'walker'; base: LonLat; elev: number; radius: number };

export type PowerSpec =
  | { kind: 'solar'; /** SOC gained per hour at full sun. */ chargePerHour: number; /** SOC used per hour idle. */ idlePerHour: number; perFix: number; perBurst: number }
  | { kind: 'battery'; /** Voltage fresh, and lost per 30 days. */ fresh: number; perMonth: number }
  | { kind: 'phone' };

export interface AccSpec {
  hz: number;
  seconds: number;
  intervalMinutes: number;
  /** g = (raw - offset) * scale, per axis X, Y, Z (e-obs style 12-bit counts). */
  scale: [number, number, number];
  offset: [number, number, number];
  /** Frequencies the accelerometer samples at, Hz (default 5..50); an instruction outside fails. */
  hzRange?: [number, number];
}

export interface Profile {
  id: ProfileId;
  caption: string;
  captionZh: string;
  species: string;
  speciesZh: string;
  scientificName: string;
  type: DeviceType;
  speciesType: SpeciesType;
  batteryType: BatteryType;
  model: string;
  sensors: SensorFlagName[];
  instrSupport: InstrSupportName[];
  /** Takes "second-level fixes": 10 fixes at one per second (§9). */
  secondLevelFix: boolean;
  /** Bounds of fixes per day this profile produces under any schedule it accepts (tests hold it to them). */
  fixesPerDay: [number, number];
  /** Fastest the carrier moves, km/h: no step between two good fixes is faster. */
  maxSpeedKmh: number;
  /** Default fix interval and the shortest one an instruction may set, minutes. */
  fixIntervalMinutes: number;
  minFixIntervalMinutes: number;
  gnss: { sats: number; satsSd: number; ttf: [number, number]; badRate: number; invalidRate: number };
  acc?: AccSpec;
  /** Minutes between records of each scalar sensor kind the device has. */
  sensorMinutes: Partial<Record<SensorKindName, number>>;
  /** Media per day. */
  media: { image?: number; video?: number; audio?: number };
  /** How the tag's housing warms: bird on the back, collar on the neck, marine tag, station box, pocket. */
  housing: 'bird' | 'collar' | 'marine' | 'box' | 'pocket';
  power: PowerSpec;
  /**
   * Voltage-adaptive high frequency (128) as the device's own default: minutes between fixes at the High,
   * Medium and Low battery level (work.ts batteryLevel). Absent: NORMAL, a fix every fixIntervalMinutes.
   */
  defaultAdaptive?: { High: number; Medium: number; Low: number };
  /** Out of coverage (no upload, no instruction fetched): chance a UTC day starts an outage, its hours. */
  coverage: { perDay: number; hours: [number, number] };
  motion: MotionSpec;
  /** Magnetic declination at the site, degrees east. */
  declination: number;
}

const e = (lon: number, lat: number): LonLat => ({ lon, lat });

export const PROFILES: Record<ProfileId, Profile> = {
  stork: {
    id: 'stork',
    caption: 'Oriental stork',
    captionZh: '东方白鹳',
    species: 'Oriental stork',
    speciesZh: '东方白鹳',
    scientificName: 'Ciconia boyciana',
    type: DeviceType.Tracker,
    speciesType: SpeciesType.Bird,
    batteryType: BatteryType.Li,
    model: 'WT-S25 solar GPS-GSM',
    sensors: ['GNSS', 'Acceleration', 'Temperature', 'Pressure', 'LightIntensity', 'Humidity'],
    instrSupport: ['AccCollectionSwitch', 'AccCollectionFrequency', 'GNSSCollectionAdaptiveHighFrequency', 'GNSSCollectionAdaptiveLowFrequency', 'DataPostbackHours'],
    secondLevelFix: true,
    fixesPerDay: [8, 500],
    maxSpeedKmh: 75, // soaring and gliding, 30-55 km/h on a flight day
    fixIntervalMinutes: 10,
    minFixIntervalMinutes: 5,
    gnss: { sats: 10, satsSd: 2, ttf: [4, 40], badRate: 0.012, invalidRate: 0.002 },
    acc: { hz: 20, seconds: 3, intervalMinutes: 10, scale: [0.00271, 0.00268, 0.00274], offset: [2041, 2055, 2046] },
    sensorMinutes: { temperature: 10, pressure: 10, light: 10, humidity: 30 },
    media: {},
    housing: 'bird',
    power: { kind: 'solar', chargePerHour: 0.26, idlePerHour: 0.007, perFix: 0.0008, perBurst: 0.0003 },
    defaultAdaptive: { High: 10, Medium: 10, Low: 20 },
    coverage: { perDay: 0.15, hours: [2, 10] },
    motion: {
      kind: 'migrant',
      // Flyway of satellite-tracked Oriental storks: Sanjiang Plain breeding grounds, the Liao River delta,
      // round the Bohai coast (waypoints inland of it: storks do not cross the sea, nor roost on it), the
      // Yellow River delta, Hongze and Shengjin lakes, Poyang Lake.
      route: [
        { name: 'Honghe NNR, Heilongjiang', lon: 133.66, lat: 47.79, elev: 55, stayDays: [0, 0] },
        { name: 'Shuangtaizihe estuary, Liaoning', lon: 121.8, lat: 40.93, elev: 3, stayDays: [6, 14] },
        { name: 'Jinzhou', lon: 121.13, lat: 41.1, elev: 15, stayDays: [0, 0] },
        { name: 'Xingcheng', lon: 120.5, lat: 40.75, elev: 40, stayDays: [0, 0] },
        { name: 'Qinhuangdao', lon: 119.45, lat: 40.0, elev: 30, stayDays: [0, 0] },
        { name: 'Tangshan', lon: 118.4, lat: 39.6, elev: 20, stayDays: [0, 0] },
        { name: 'Tianjin', lon: 117.6, lat: 39.25, elev: 3, stayDays: [0, 0] },
        { name: 'Beidagang wetland, Tianjin', lon: 117.43, lat: 38.75, elev: 3, stayDays: [2, 5] },
        { name: 'Huanghua', lon: 117.3, lat: 38.35, elev: 4, stayDays: [0, 0] },
        { name: 'Wudi', lon: 117.6, lat: 37.9, elev: 5, stayDays: [0, 0] },
        { name: 'Lijin', lon: 118.3, lat: 37.5, elev: 6, stayDays: [0, 0] },
        { name: 'Yellow River delta, Shandong', lon: 119.05, lat: 37.77, elev: 4, stayDays: [5, 12] },
        { name: 'Hongze Lake, Jiangsu', lon: 118.7, lat: 33.3, elev: 13, stayDays: [2, 5] },
        { name: 'Shengjin Lake, Anhui', lon: 117.05, lat: 30.37, elev: 10, stayDays: [2, 5] },
        { name: 'Poyang Lake, Jiangxi', lon: 116.02, lat: 29.17, elev: 14, stayDays: [0, 0] },
      ],
      // Autumn: leave the Sanjiang Plain late September to mid October, reach Poyang in November; spring:
      // leave Poyang in March, back on the breeding grounds in April (one round trip a year).
      calendar: { autumnDepart: [268, 290], autumnArrive: [306, 330], springDepart: [62, 80], springArrive: [96, 118] },
      flightStart: 8.5,
      flightHours: 8,
      dailyKm: [260, 420],
      stayRadius: 2500,
      ceiling: [900, 2100],
    },
    declination: -8,
  },
  deer: {
    id: 'deer',
    caption: 'Sika deer',
    captionZh: '梅花鹿',
    species: 'Sika deer',
    speciesZh: '梅花鹿',
    scientificName: 'Cervus nippon',
    type: DeviceType.Tracker,
    speciesType: SpeciesType.Beast,
    batteryType: BatteryType.LiSOCl2Added,
    model: 'WT-C400 GPS collar',
    sensors: ['GNSS', 'Acceleration', 'Temperature', 'Magnetism', 'Video'],
    instrSupport: ['AccCollectionSwitch', 'AccCollectionFrequency', 'GNSSCollectionAdaptiveLowFrequency', 'DataPostbackHours'],
    secondLevelFix: false,
    fixesPerDay: [8, 300],
    maxSpeedKmh: 50,
    fixIntervalMinutes: 30,
    minFixIntervalMinutes: 5,
    gnss: { sats: 7, satsSd: 2, ttf: [8, 50], badRate: 0.025, invalidRate: 0.002 },
    acc: { hz: 10, seconds: 4, intervalMinutes: 10, scale: [0.00266, 0.00273, 0.0027], offset: [2052, 2038, 2049] },
    sensorMinutes: { temperature: 30, magnetism: 10 },
    media: { video: 1 },
    housing: 'collar',
    power: { kind: 'battery', fresh: 3.64, perMonth: 0.012 },
    coverage: { perDay: 0.2, hours: [3, 12] },
    motion: {
      kind: 'homeRange',
      centre: e(130.95, 43.08), // Hunchun reserve, Jilin
      radius: 1600,
      elev: { base: 220, relief: 380 },
      activity: 'crepuscular',
      speeds: { forage: 0.12, walk: 0.6, run: 5 },
      canopy: { active: 0.35, rest: 0.55 },
    },
    declination: -10,
  },
  seal: {
    id: 'seal',
    caption: 'Spotted seal',
    captionZh: '斑海豹',
    species: 'Spotted seal',
    speciesZh: '斑海豹',
    scientificName: 'Phoca largha',
    type: DeviceType.Tracker,
    speciesType: SpeciesType.Beast,
    batteryType: BatteryType.LiSOCl2Added,
    model: 'WT-M60 Fastloc marine tag',
    sensors: ['GNSS', 'Acceleration', 'Temperature', 'WaterDepth', 'Pressure', 'RedInfraredLight'],
    instrSupport: ['AccCollectionSwitch', 'AccCollectionFrequency', 'DataPostbackHours'],
    secondLevelFix: false,
    fixesPerDay: [8, 200],
    maxSpeedKmh: 25,
    fixIntervalMinutes: 20,
    minFixIntervalMinutes: 10,
    gnss: { sats: 6, satsSd: 1.8, ttf: [1, 3], badRate: 0.05, invalidRate: 0.003 },
    acc: { hz: 25, seconds: 2, intervalMinutes: 5, scale: [0.00272, 0.00269, 0.00271], offset: [2047, 2044, 2058] },
    sensorMinutes: { waterDepth: 1, pressure: 5, temperature: 5, redInfrared: 5 },
    media: {},
    housing: 'marine',
    power: { kind: 'battery', fresh: 3.62, perMonth: 0.02 },
    coverage: { perDay: 0.5, hours: [4, 20] },
    motion: {
      kind: 'diver',
      haulout: e(121.75, 40.76), // sandbars off the Shuangtaizi estuary, Liaodong Bay
      seaBearings: [175, 250],
      patchKm: [5, 22],
      floor: { shore: 3, perKm: 0.9, max: 32 },
    },
    declination: -8,
  },
  fisher: {
    id: 'fisher',
    caption: 'Fisher',
    captionZh: '渔貂',
    species: 'Fisher',
    speciesZh: '渔貂',
    scientificName: 'Pekania pennanti',
    type: DeviceType.Tracker,
    speciesType: SpeciesType.Beast,
    batteryType: BatteryType.Li,
    model: 'WT-C120 GPS-ACC collar',
    sensors: ['GNSS', 'Acceleration', 'Temperature'],
    instrSupport: ['AccCollectionSwitch', 'AccCollectionFrequency', 'DataPostbackHours'],
    secondLevelFix: false,
    fixesPerDay: [8, 300],
    maxSpeedKmh: 35, // fishers_move2.csv: fastest step 35.1 km/h, 99.9 % under 8.4
    fixIntervalMinutes: 15,
    minFixIntervalMinutes: 5,
    gnss: { sats: 7, satsSd: 2, ttf: [10, 55], badRate: 0.03, invalidRate: 0.002 },
    acc: { hz: 10, seconds: 3, intervalMinutes: 10, scale: [0.0027, 0.0027, 0.0027], offset: [2048, 2048, 2048] },
    sensorMinutes: { temperature: 15 },
    media: {},
    housing: 'collar',
    power: { kind: 'battery', fresh: 3.7, perMonth: 0.03 },
    coverage: { perDay: 0.3, hours: [2, 8] },
    motion: {
      kind: 'homeRange',
      centre: e(-73.86, 42.795), // the LaPoint fisher study area, Rensselaer County, New York
      radius: 1800,
      elev: { base: 60, relief: 120 },
      activity: 'nocturnal',
      speeds: { forage: 0.25, walk: 0.8, run: 3.5 },
      canopy: { active: 0.4, rest: 0.85 },
    },
    declination: -13,
  },
  vhf: {
    id: 'vhf',
    caption: 'VHF receiver station',
    captionZh: 'VHF 接收站',
    species: '',
    speciesZh: '',
    scientificName: '',
    type: DeviceType.VHFReceiver,
    speciesType: SpeciesType.OtherSpecies,
    batteryType: BatteryType.Li,
    model: 'WT-R8 VHF receiver',
    sensors: ['GNSS', 'Temperature', 'Humidity'],
    instrSupport: ['GNSSCollectionAdaptiveLowFrequency', 'DataPostbackHours'],
    secondLevelFix: false,
    fixesPerDay: [8, 48],
    maxSpeedKmh: 2,
    fixIntervalMinutes: 180,
    minFixIntervalMinutes: 30,
    gnss: { sats: 11, satsSd: 1.5, ttf: [20, 58], badRate: 0.01, invalidRate: 0 },
    sensorMinutes: { temperature: 30, humidity: 30 },
    media: {},
    housing: 'box',
    power: { kind: 'solar', chargePerHour: 0.12, idlePerHour: 0.006, perFix: 0.0005, perBurst: 0 },
    coverage: { perDay: 0.05, hours: [1, 3] },
    motion: { kind: 'station', site: e(116.0, 29.18), elev: 19, mast: 6 }, // Wucheng, Poyang Lake reserve
    declination: -5,
  },
  phone: {
    id: 'phone',
    caption: 'Field phone',
    captionZh: '巡护手机',
    species: '',
    speciesZh: '',
    scientificName: '',
    type: DeviceType.Phone,
    speciesType: SpeciesType.OtherSpecies,
    batteryType: BatteryType.Li,
    model: 'Wildtrack Field (Android)',
    sensors: ['GNSS', 'Pressure', 'Magnetism', 'Image', 'Audio'],
    instrSupport: ['DataPostbackHours'],
    secondLevelFix: false,
    fixesPerDay: [8, 500],
    maxSpeedKmh: 20,
    fixIntervalMinutes: 2,
    minFixIntervalMinutes: 1,
    gnss: { sats: 14, satsSd: 3, ttf: [1, 5], badRate: 0.01, invalidRate: 0 },
    sensorMinutes: { pressure: 10, magnetism: 10 },
    media: { image: 4, audio: 1 },
    housing: 'pocket',
    power: { kind: 'phone' },
    coverage: { perDay: 0.1, hours: [1, 4] },
    motion: { kind: 'walker', base: e(118.95, 37.76), elev: 3, radius: 3000 }, // Yellow River delta reserve station
    declination: -7,
  },
};

export const PROFILE_IDS = Object.keys(PROFILES) as ProfileId[];

export function getProfile(id: string): Profile {
  const p = (PROFILES as Record<string, Profile | undefined>)[id];
  if (!p) throw new Error(`unknown profile "${id}"; one of ${PROFILE_IDS.join(', ')}`);
  return p;
}

/** The sensor kinds a profile records, from its sensor flags (the contract's kinds table). */
export const FLAG_KIND: Partial<Record<SensorFlagName, SensorKindName>> = Object.fromEntries(SENSOR_KIND_NAMES.map((k) => [SENSOR_KINDS[k].flag, k]));

/** Arguments of `npm run wildtrack -- register-device` for a device of this profile. */
export function registerArgs(profile: Profile, org: string, imei: string, caption = profile.caption): string[] {
  const type = profile.type === DeviceType.VHFReceiver ? 'vhf' : profile.type === DeviceType.Phone ? 'phone' : 'tracker';
  const species = profile.speciesType === SpeciesType.Bird ? 'bird' : profile.speciesType === SpeciesType.Beast ? 'beast' : 'other';
  const battery = { [BatteryType.Unknown]: 'unknown', [BatteryType.Li]: 'li', [BatteryType.LIC]: 'lic', [BatteryType.LiSOCl2Added]: 'lisocl2' }[profile.batteryType];
  return [
    'register-device', '--org', org, '--imei', imei, '--type', type, '--model', profile.model, '--caption', caption,
    '--sensors', profile.sensors.join(','), '--species', species, '--battery', battery,
    // the instructions the simulated tag obeys: without them the console refuses those instructions for it
    '--instr', profile.instrSupport.join(','),
  ];
}
