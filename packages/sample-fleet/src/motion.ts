// Over 400 lines: the five movement models (home range, migrant, diver, station, walker) share the range walk,
// the behaviour bouts and the day curves above them, and createMotion chooses among them; one file keeps
// the models side by side for comparison.
import { angleDiff, bearingOf, DAY, distance, enu, HOUR, interpolate, type LonLat, offset, solarHour, terrain, wrap360 } from './geo.js';
import type { Behaviour, MotionSpec, Site } from './profiles.js';
import { Rng } from './rng.js';

/** Where the carrier is and what it does at the end of a step. */
export interface MotionState {
  pos: LonLat;
  /** Ground (or sea surface) elevation, m. */
  elev: number;
  /** Height above ground, m (birds in flight). */
  agl: number;
  /** Depth below the surface, m (divers). */
  depth: number;
  behaviour: Behaviour;
  /** Body heading, degrees from north (what a compass on the animal sees). */
  heading: number;
  /** Sky obstruction 0..1 (forest, den, indoors): fewer satellites, failed fixes. */
  canopy: number;
  /** A GNSS fix can be taken now (false underwater, or while a phone's app is off). */
  skyView: boolean;
  /** Phone: tracking app on (survey). */
  tracking: boolean;
  /** Phone: standing at an observation point (photos, recordings). */
  observing: boolean;
  /** Migrant: this is a flight day (more second-level fixes). */
  flightDay: boolean;
  /** Diver: blood oxygen saturation 0..1 (for the red/infrared sensor). */
  oxygen: number;
  /** Chance that a fix attempt now gets a clear sky long enough (a diver's antenna awash: low). */
  fixChance: number;
  /** Fewest minutes between fix attempts now (a hauled-out seal's tag saves power: hourly). */
  attemptGapMinutes: number;
}

export interface Motion {
  readonly state: MotionState;
  step(t: number, dtMs: number): void;
}

function initialState(pos: LonLat, elev: number): MotionState {
  return {
    pos,
    elev,
    agl: 0,
    depth: 0,
    behaviour: 'rest',
    heading: 0,
    canopy: 0,
    skyView: true,
    tracking: true,
    observing: false,
    flightDay: false,
    oxygen: 0.97,
    fixChance: 1,
    attemptGapMinutes: 0,
  };
}

/**
 * A correlated random walk with a pull toward a centre once the walker is more than half the radius out:
 * the classic home-range model. Offsets are metres east/north of the centre.
 */
class RangeWalk {
  x = 0;
  y = 0;
  heading: number;
  constructor(
    private readonly rng: Rng,
    readonly radius: number,
  ) {
    this.heading = rng.range(0, 360);
    const r = radius * 0.4 * Math.sqrt(rng.float());
    const a = rng.range(0, 2 * Math.PI);
    this.x = r * Math.sin(a);
    this.y = r * Math.cos(a);
  }

  move(speed: number, dtS: number, turnSd: number): void {
    if (speed <= 0) return;
    this.heading += this.rng.normal(0, turnSd);
    const d = Math.hypot(this.x, this.y);
    if (d > this.radius * 0.5) {
      const home = bearingOf(-this.x, -this.y);
      const pull = Math.min(1, (d / this.radius - 0.5) * 0.9);
      this.heading += pull * angleDiff(home, this.heading);
    }
    this.heading = wrap360(this.heading);
    const a = (this.heading * Math.PI) / 180;
    this.x += speed * dtS * Math.sin(a);
    this.y += speed * dtS * Math.cos(a);
  }
}

/** Bouts of behaviour: the current one runs until its time is up, then the next is drawn. */
class Bouts {
  current: Behaviour = 'rest';
  left = 0;
  constructor(private readonly rng: Rng) {}
  tick(dtMs: number, choose: () => [Behaviour, number]): Behaviour {
    this.left -= dtMs;
    if (this.left <= 0) {
      const [b, meanMin] = choose();
      this.current = b;
      this.left = Math.max(60_000, this.rng.exponential(meanMin * 60_000));
    }
    return this.current;
  }
}

const gauss = (x: number, mu: number, sd: number) => Math.exp(-0.5 * ((x - mu) / sd) ** 2);

/** Probability of being active by local solar hour. */
function activityCurve(kind: 'crepuscular' | 'nocturnal', h: number): number {
  if (kind === 'crepuscular') {
    return 0.12 + 0.75 * (gauss(h, 6, 1.4) + gauss(h, 18.3, 1.5)) + 0.25 * gauss(h, 12, 3);
  }
  const night = h >= 19 || h < 6 ? 0.6 : 0.08;
  return Math.min(0.95, night + 0.3 * (gauss(h, 5.5, 1.2) + gauss(h, 19.5, 1.2)));
}

class HomeRangeMotion implements Motion {
  readonly state: MotionState;
  private readonly walk: RangeWalk;
  private readonly bouts: Bouts;
  constructor(
    private readonly spec: Extract<MotionSpec, { kind: 'homeRange' }>,
    private readonly rng: Rng,
  ) {
    this.walk = new RangeWalk(rng, spec.radius);
    this.bouts = new Bouts(rng);
    this.state = initialState(spec.centre, spec.elev.base);
    this.place();
  }

  private place(): void {
    const s = this.state;
    s.pos = offset(this.spec.centre, this.walk.x, this.walk.y);
    s.elev = terrain(s.pos, this.spec.elev.base, this.spec.elev.relief);
  }

  step(t: number, dtMs: number): void {
    const h = solarHour(t, this.spec.centre.lon);
    const b = this.bouts.tick(dtMs, () => {
      if (!this.rng.chance(activityCurve(this.spec.activity, h))) return ['rest', 50];
      const r = this.rng.float();
      return r < 0.62 ? ['forage', 25] : r < 0.96 ? ['walk', 10] : ['run', 1.5];
    });
    const speed = b === 'rest' ? 0 : this.spec.speeds[b as 'forage' | 'walk' | 'run'] * Math.exp(this.rng.normal(0, 0.3));
    this.walk.move(speed, dtMs / 1000, b === 'forage' ? 40 : b === 'walk' ? 15 : 8);
    this.place();
    const s = this.state;
    s.behaviour = b;
    s.heading = b === 'rest' ? wrap360(this.walk.heading + this.rng.normal(0, 3)) : this.walk.heading;
    s.canopy = b === 'rest' ? this.spec.canopy.rest : this.spec.canopy.active;
  }
}

interface Segment {
  kind: 'stay' | 'flight';
  /** The stay's site, or the flight's path from one stop to the next (waypoints between). */
  path: Site[];
  /** Absolute local days (days since the epoch at the flyway's mean longitude). */
  startDay: number;
  days: number;
}

const dayOfYearStart = (year: number, doy: number) => Math.round(Date.UTC(year, 0, doy) / DAY);

const pathLength = (path: Site[]) => path.slice(1).reduce((n, p, i) => n + distance(path[i]!, p), 0);

/** The point a fraction f of the way along a path of great-circle pieces, and the ground elevation there. */
function along(path: Site[], f: number): { pos: LonLat; elev: number } {
  if (path.length === 1) return { pos: path[0]!, elev: path[0]!.elev };
  const lens = path.slice(1).map((p, i) => distance(path[i]!, p));
  let left = Math.min(1, Math.max(0, f)) * lens.reduce((x, y) => x + y, 0);
  for (let i = 0; i < lens.length; i++) {
    if (left <= lens[i]! || i === lens.length - 1) {
      const g = lens[i]! > 0 ? Math.min(1, left / lens[i]!) : 1;
      const a = path[i]!;
      const b = path[i + 1]!;
      return { pos: interpolate(a, b, g), elev: a.elev + (b.elev - a.elev) * g };
    }
    left -= lens[i]!;
  }
  throw new Error('unreachable');
}

/**
 * A migrant on a real flyway and the real calendar of its species: on the breeding site from spring to
 * autumn, south along the route in autumn, on the wintering site all winter, north in spring. Each
 * year's dates and stopover lengths are drawn from the seed and the year, so a restarted device is on
 * the same leg or at the same stopover as before, whatever day it is restarted on. Storks soar: they fly
 * by day in thermals, climbing in circles and gliding on, and roost at night on land or in shallow
 * wetland, also between the flight days of a long leg.
 */
class MigrantMotion implements Motion {
  readonly state: MotionState;
  private readonly refLon: number;
  private readonly yearSeed: number;
  private readonly years = new Map<number, Segment[]>();
  private readonly walk: RangeWalk;
  private readonly bouts: Bouts;
  /** Phases (radians) and periods (s) of the lateral wander in flight: smooth, a kilometre or two. */
  private readonly wander: { amp: number; period: number; phase: number }[];
  private climbing = true;
  private ceiling = 1000;

  constructor(
    private readonly spec: Extract<MotionSpec, { kind: 'migrant' }>,
    private readonly rng: Rng,
    itineraryRng: Rng,
  ) {
    const route = spec.route;
    this.yearSeed = itineraryRng.int(0, 0x7fffffff);
    this.refLon = route.reduce((s, p) => s + p.lon, 0) / route.length;
    this.wander = [
      { amp: itineraryRng.range(900, 1500), period: itineraryRng.range(90, 140) * 60, phase: itineraryRng.range(0, 2 * Math.PI) },
      { amp: itineraryRng.range(300, 700), period: itineraryRng.range(35, 60) * 60, phase: itineraryRng.range(0, 2 * Math.PI) },
    ];
    this.walk = new RangeWalk(rng, spec.stayRadius);
    this.bouts = new Bouts(rng);
    this.state = initialState(route[0]!, route[0]!.elev);
  }

  /** One migration: stops in order, leaving on `depart` and arriving on `arrive` (absolute days). */
  private migration(route: Site[], depart: number, arrive: number, rng: Rng): Segment[] {
    const stops = route.map((s, i) => ({ s, i })).filter(({ s, i }) => i === 0 || i === route.length - 1 || s.stayDays[1] > 0);
    const legs = stops.slice(1).map(({ i }, k) => {
      const path = route.slice(stops[k]!.i, i + 1);
      const km = path.slice(1).reduce((n, p, j) => n + distance(path[j]!, p) / 1000, 0);
      return { path, days: Math.max(1, Math.ceil(km / rng.range(this.spec.dailyKm[0], this.spec.dailyKm[1]))) };
    });
    // The stopovers share the days the flights leave, in proportion to a length drawn per visit.
    const inner = stops.slice(1, -1).map(({ s }) => rng.range(s.stayDays[0], s.stayDays[1]));
    const budget = arrive - depart - legs.reduce((n, l) => n + l.days, 0);
    const weight = inner.reduce((x, y) => x + y, 0);
    const stays = inner.map((w) => Math.max(1, Math.round((budget * w) / weight)));
    const segs: Segment[] = [];
    let day = depart;
    legs.forEach((leg, k) => {
      segs.push({ kind: 'flight', path: leg.path, startDay: day, days: leg.days });
      day += leg.days;
      if (k < stays.length) {
        segs.push({ kind: 'stay', path: [leg.path.at(-1)!], startDay: day, days: stays[k]! });
        day += stays[k]!;
      }
    });
    return segs;
  }

  /** The calendar year's segments: winter, spring migration, breeding, autumn migration, winter. */
  private year(y: number): Segment[] {
    let segs = this.years.get(y);
    if (segs) return segs;
    const rng = new Rng((this.yearSeed ^ Math.imul(y, 0x9e3779b1)) | 0);
    const c = this.spec.calendar;
    const on = (r: [number, number]) => dayOfYearStart(y, rng.int(r[0], r[1]));
    const [sd, sa, ad, aa] = [on(c.springDepart), on(c.springArrive), on(c.autumnDepart), on(c.autumnArrive)];
    const route = this.spec.route;
    const breeding = route[0]!;
    const wintering = route.at(-1)!;
    const yearStart = dayOfYearStart(y, 1);
    const spring = this.migration([...route].reverse(), sd, sa, rng);
    const springEnd = spring.at(-1)!.startDay + spring.at(-1)!.days;
    const autumn = this.migration(route, ad, aa, rng);
    const autumnEnd = autumn.at(-1)!.startDay + autumn.at(-1)!.days;
    segs = [
      { kind: 'stay', path: [wintering], startDay: yearStart - 1, days: sd - yearStart + 1 },
      ...spring,
      { kind: 'stay', path: [breeding], startDay: springEnd, days: ad - springEnd },
      ...autumn,
      { kind: 'stay', path: [wintering], startDay: autumnEnd, days: dayOfYearStart(y + 1, 1) - autumnEnd + 1 },
    ];
    this.years.set(y, segs);
    return segs;
  }

  /** The itinerary segment of time t and the day index within it. */
  private segmentAt(t: number): { seg: Segment; dayInSeg: number; hour: number } {
    const local = t + (this.refLon / 15) * HOUR;
    const absDay = Math.floor(local / DAY);
    const hour = (local - absDay * DAY) / HOUR;
    const segs = this.year(new Date(absDay * DAY).getUTCFullYear());
    let seg = segs[0]!;
    for (const s of segs) if (s.startDay <= absDay) seg = s;
    return { seg, dayInSeg: absDay - seg.startDay, hour };
  }

  step(t: number, dtMs: number): void {
    const { seg, dayInSeg, hour } = this.segmentAt(t);
    const s = this.state;
    const dtS = dtMs / 1000;
    const { flightStart, flightHours } = this.spec;
    const inWindow = seg.kind === 'flight' && hour >= flightStart && hour < flightStart + flightHours;
    const flown = seg.kind === 'flight' ? Math.min(1, Math.max(0, (hour - flightStart) / flightHours)) : 0;
    const progress = seg.kind === 'flight' ? (dayInSeg + flown) / seg.days : 0;
    const here = along(seg.path, progress);
    let anchor = here.pos;
    s.flightDay = seg.kind === 'flight';

    if (inWindow) {
      // Off the take-off spot, then a smooth lateral wander of a kilometre or two about the path.
      const decay = Math.exp(-dtS / 1800);
      this.walk.x *= decay;
      this.walk.y *= decay;
      // The side is square to the path 20 km either way, so that it turns gently at a waypoint.
      const eps = 20_000 / Math.max(1, pathLength(seg.path));
      const d = enu(along(seg.path, progress - eps).pos, along(seg.path, progress + eps).pos);
      const len = Math.hypot(d.east, d.north) || 1;
      const side = Math.sin(Math.PI * flown) * this.wander.reduce((n, w) => n + w.amp * Math.sin((2 * Math.PI * t) / 1000 / w.period + w.phase), 0);
      anchor = offset(anchor, (d.north / len) * side, (-d.east / len) * side);
      const into = (hour - flightStart) * 60;
      const left = (flightStart + flightHours - hour) * 60;
      const midday = Math.sin((Math.PI * (hour - flightStart)) / flightHours);
      if (left < 30) {
        s.agl = Math.max(0, s.agl - Math.max(s.agl / Math.max(1, left), 1.5 * dtS));
        s.behaviour = s.agl < 60 ? 'flap' : 'soar';
      } else if (into < 20 || s.agl < 200) {
        s.agl += this.rng.range(1.5, 3) * dtS;
        s.behaviour = this.rng.chance(0.5) ? 'flap' : 'soar';
      } else {
        if (this.climbing) {
          s.agl += this.rng.range(1.2, 3.2) * dtS;
          if (s.agl >= this.ceiling) {
            this.climbing = false;
          }
        } else {
          s.agl -= this.rng.range(0.8, 1.6) * dtS;
          if (s.agl < this.rng.range(300, 500)) {
            this.climbing = true;
            const [lo, hi] = this.spec.ceiling;
            this.ceiling = lo + (hi - lo) * midday * this.rng.range(0.7, 1);
          }
        }
        s.behaviour = this.rng.chance(0.1) ? 'flap' : 'soar';
      }
    } else {
      // On the ground: forage by day, roost at night; short flights between feeding patches.
      const day = hour >= 6 && hour < 18.5;
      const b = this.bouts.tick(dtMs, () => {
        if (!day) return ['rest', 120];
        const r = this.rng.float();
        return r < 0.66 ? ['forage', 35] : r < 0.88 ? ['rest', 25] : ['flap', 4];
      });
      const behaviour: Behaviour = !day && b !== 'rest' ? 'rest' : b;
      const speed = behaviour === 'forage' ? 0.25 * Math.exp(this.rng.normal(0, 0.3)) : behaviour === 'flap' ? this.rng.range(8, 12) : 0;
      this.walk.move(speed, dtS, behaviour === 'forage' ? 35 : 10);
      if (behaviour === 'flap') {
        s.agl = Math.min(s.agl + 2.5 * dtS, this.rng.range(60, 150));
        if (this.bouts.left < 90_000) s.agl = Math.max(0, s.agl * 0.3);
      } else {
        s.agl = Math.max(0, s.agl - 3 * dtS);
      }
      s.behaviour = s.agl > 20 && behaviour !== 'flap' ? 'soar' : behaviour;
      if (s.agl === 0 && s.behaviour === 'soar') s.behaviour = 'rest';
    }
    const prev = s.pos;
    s.pos = offset(anchor, this.walk.x, this.walk.y);
    s.elev = terrain(s.pos, here.elev, seg.kind === 'flight' && progress > 0 && progress < 1 ? 40 : 2);
    const d = enu(prev, s.pos);
    if (Math.hypot(d.east, d.north) > 1) s.heading = bearingOf(d.east, d.north);
    s.canopy = 0;
  }
}

/**
 * A seal between a haul-out sandbar and foraging patches offshore. It hauls out around low tide (a
 * 12.42 h cycle), travels at ~1.5 m/s with shallow dives, and at the patch dives to the bottom for
 * 3-7 minutes with 1-2 minutes at the surface; blood oxygen falls during a dive and recovers at the surface.
 */
class DiverMotion implements Motion {
  readonly state: MotionState;
  private x = 0;
  private y = 0;
  private target: { x: number; y: number } | null = null;
  private diving = false;
  private diveStart = 0;
  private diveEnd = 0;
  private diveDepth = 0;
  private surfaceUntil = 0;
  private readonly tidePhase: number;

  constructor(
    private readonly spec: Extract<MotionSpec, { kind: 'diver' }>,
    private readonly rng: Rng,
  ) {
    this.tidePhase = rng.range(0, 12.42 * HOUR);
    this.state = initialState(spec.haulout, 0);
  }

  private floorAt(x: number, y: number): number {
    const km = Math.hypot(x, y) / 1000;
    return Math.min(this.spec.floor.max, this.spec.floor.shore + this.spec.floor.perKm * km);
  }

  step(t: number, dtMs: number): void {
    const s = this.state;
    const dtS = dtMs / 1000;
    const tide = Math.cos((2 * Math.PI * (t + this.tidePhase)) / (12.42 * HOUR));
    const hauled = Math.hypot(this.x, this.y) < 150;
    let speed = 0;
    let headTo: { x: number; y: number } | null = null;
    if (tide < -0.45) {
      // Low tide: head for the sandbar, or lie on it.
      this.target = null;
      if (!hauled) {
        headTo = { x: 0, y: 0 };
        speed = 1.6;
      }
    } else {
      if (!this.target) {
        const b = (this.rng.range(this.spec.seaBearings[0], this.spec.seaBearings[1]) * Math.PI) / 180;
        const r = this.rng.range(this.spec.patchKm[0], this.spec.patchKm[1]) * 1000;
        this.target = { x: r * Math.sin(b), y: r * Math.cos(b) };
      }
      const far = Math.hypot(this.target.x - this.x, this.target.y - this.y);
      headTo = this.target;
      speed = far > 1000 ? 1.4 : 0.25;
    }
    if (headTo) {
      const dx = headTo.x - this.x;
      const dy = headTo.y - this.y;
      const d = Math.hypot(dx, dy);
      const want = bearingOf(dx, dy) + this.rng.normal(0, speed > 1 ? 12 : 70);
      s.heading = wrap360(s.heading + 0.6 * angleDiff(want, s.heading));
      const step = Math.min(d, speed * dtS);
      const a = (s.heading * Math.PI) / 180;
      this.x += step * Math.sin(a);
      this.y += step * Math.cos(a);
    }
    const onSand = Math.hypot(this.x, this.y) < 150 && tide < -0.45;
    if (onSand) {
      s.depth = 0;
      s.behaviour = 'rest';
      this.diving = false;
      this.surfaceUntil = t;
    } else {
      // Dive cycle: surface, dive (descend 1.2 m/s, bottom, ascend 1 m/s), surface again.
      if (this.diving && t >= this.diveEnd) {
        this.diving = false;
        this.surfaceUntil = t + this.rng.range(50, 130) * 1000;
      } else if (!this.diving && t >= this.surfaceUntil) {
        const travelling = speed > 1;
        const floor = this.floorAt(this.x, this.y);
        this.diving = true;
        this.diveStart = t;
        this.diveDepth = travelling ? this.rng.range(2, Math.min(8, floor)) : floor * this.rng.range(0.85, 1);
        this.diveEnd = t + (travelling ? this.rng.range(60, 180) : this.rng.range(180, 420)) * 1000;
      }
      if (this.diving) {
        const since = (t - this.diveStart) / 1000 + 30;
        const until = (this.diveEnd - t) / 1000;
        s.depth = Math.max(0, Math.min(this.diveDepth, since * 1.2, until * 1.0));
        s.behaviour = 'swim';
      } else {
        s.depth = 0;
        s.behaviour = speed > 1 ? 'swim' : 'surface';
      }
    }
    const under = s.depth > 0.8;
    // Fastloc needs the antenna clear of the water for its snapshot: on the sand nearly always, at sea only
    // in a surfacing long enough and between waves (seal tags get a few fixes an hour at best).
    const surfaceLeft = this.diving ? 0 : (this.surfaceUntil - t) / 1000;
    s.fixChance = onSand ? 0.9 : 0.55 * Math.min(1, Math.max(0, surfaceLeft - 10) / 80);
    s.attemptGapMinutes = onSand ? 60 : 0;
    s.oxygen = under ? Math.max(0.55, s.oxygen - 0.0012 * dtS) : Math.min(0.97, s.oxygen + 0.006 * dtS);
    s.skyView = !under;
    s.pos = offset(this.spec.haulout, this.x, this.y);
    s.elev = 0;
    s.canopy = 0;
  }
}

class StationMotion implements Motion {
  readonly state: MotionState;
  constructor(spec: Extract<MotionSpec, { kind: 'station' }>) {
    this.state = initialState(spec.site, spec.elev);
    this.state.agl = spec.mast;
    this.state.behaviour = 'still';
  }
  step(): void {}
}

/**
 * A ranger with the field app: at the station at night and over lunch, walking survey transects along
 * the reserve's dikes (a north-south / east-west grid) in the morning and afternoon, stopping to watch.
 */
class WalkerMotion implements Motion {
  readonly state: MotionState;
  private x = 0;
  private y = 0;
  private legLeft = 0;
  private stopLeft = 0;
  private dayPlan = { day: -1, am: 8, amEnd: 11.5, pm: 14, pmEnd: 17 };
  constructor(
    private readonly spec: Extract<MotionSpec, { kind: 'walker' }>,
    private readonly rng: Rng,
  ) {
    this.state = initialState(spec.base, spec.elev);
  }

  step(t: number, dtMs: number): void {
    const s = this.state;
    const dtS = dtMs / 1000;
    const h = solarHour(t, this.spec.base.lon);
    const day = Math.floor((t + (this.spec.base.lon / 15) * HOUR) / DAY);
    if (this.dayPlan.day !== day) {
      this.dayPlan = {
        day,
        am: 7.5 + this.rng.range(0, 1),
        amEnd: 11.2 + this.rng.range(0, 0.6),
        pm: 13.8 + this.rng.range(0, 0.7),
        pmEnd: 16.5 + this.rng.range(0, 1),
      };
    }
    const p = this.dayPlan;
    const surveying = (h >= p.am && h < p.amEnd) || (h >= p.pm && h < p.pmEnd);
    const d = Math.hypot(this.x, this.y);
    s.observing = false;
    if (surveying) {
      if (this.stopLeft > 0) {
        this.stopLeft -= dtMs;
        s.behaviour = 'still';
        s.observing = true;
      } else {
        if (this.legLeft <= 0) {
          // New straight leg along the dike grid; turn home when far out.
          const home = bearingOf(-this.x, -this.y);
          const dir = d > this.spec.radius * 0.7 ? Math.round(home / 90) * 90 : this.rng.pick([0, 90, 180, 270]);
          s.heading = wrap360(dir + this.rng.normal(0, 4));
          this.legLeft = this.rng.range(300, 1200);
          if (this.rng.chance(0.45)) this.stopLeft = this.rng.range(2, 9) * 60_000;
        }
        const v = 1.2 * Math.exp(this.rng.normal(0, 0.1));
        const a = (s.heading * Math.PI) / 180;
        this.x += v * dtS * Math.sin(a);
        this.y += v * dtS * Math.cos(a);
        this.legLeft -= v * dtS;
        s.behaviour = 'carried';
      }
    } else if (d > 20) {
      // Walk back to the station.
      s.heading = bearingOf(-this.x, -this.y);
      const step = Math.min(d, 1.3 * dtS);
      this.x -= (this.x / d) * step;
      this.y -= (this.y / d) * step;
      s.behaviour = 'carried';
    } else {
      this.x = this.rng.normal(0, 4);
      this.y = this.rng.normal(0, 4);
      s.behaviour = 'still';
    }
    const home = Math.hypot(this.x, this.y) <= 20 && !surveying;
    s.tracking = surveying || !home;
    s.canopy = home ? 0.7 : 0;
    s.pos = offset(this.spec.base, this.x, this.y);
    s.elev = this.spec.elev;
    s.agl = 1.2;
  }
}

export function createMotion(spec: MotionSpec, rng: Rng, itineraryRng: Rng): Motion {
  switch (spec.kind) {
    case 'homeRange':
      return new HomeRangeMotion(spec, rng);
    case 'migrant':
      return new MigrantMotion(spec, rng, itineraryRng);
    case 'diver':
      return new DiverMotion(spec, rng);
    case 'station':
      return new StationMotion(spec);
    case 'walker':
      return new WalkerMotion(spec, rng);
  }
}
