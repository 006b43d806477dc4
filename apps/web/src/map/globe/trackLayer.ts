import {
  ArcType,
  BoundingSphere,
  Cartesian3,
  Color,
  GeometryInstance,
  HeadingPitchRange,
  Material,
  Math as CesiumMath,
  PointPrimitiveCollection,
  PolylineCollection,
  PolylineGeometry,
  PolylineMaterialAppearance,
  Primitive,
  PrimitiveCollection,
  SceneTransforms,
  type CesiumWidget,
  type PerspectiveFrustum,
  type PointPrimitive,
  type Polyline,
} from 'cesium';
import { fixAt, pathProgress, trackPath, type TrackLine, type TrackPath } from './trackLine';

interface Drawn {
  line: TrackLine;
  path: TrackPath;
  /** The line's material: its `progress` uniform is the replay. */
  material: Material | null;
  point: PointPrimitive;
  drop: Polyline;
  /** The fix the marker stands on (-1: hidden). */
  index: number;
}

/** Closest the camera comes when framing tracks that barely move (a nest, a single fix). */
const MIN_FIT_RANGE = 20_000;
/** How much of its colour the part of a track still ahead of the replay clock keeps. */
const AHEAD_ALPHA = 0.2;

/**
 * A track's colour, with the part past `progress` (0…1 along the line, by the vertex texture coordinate
 * s) faded: replaying changes one uniform per frame and never touches the line's buffers, as the 2D
 * map's trail layer does.
 */
const TRAIL_SHADER = `
uniform vec4 color;
uniform float progress;
uniform float ahead;

czm_material czm_getMaterial(czm_materialInput materialInput) {
  czm_material material = czm_getDefaultMaterial(materialInput);
  material.diffuse = color.rgb;
  material.alpha = materialInput.st.s <= progress ? color.a : color.a * ahead;
  return material;
}
`;

/** Paths per track, kept while the track is: changing the height scale doesn't walk the fixes again. */
const paths = new WeakMap<TrackLine, TrackPath>();

function pathOf(line: TrackLine): TrackPath {
  let path = paths.get(line);
  if (!path) {
    path = trackPath(line);
    paths.set(line, path);
  }
  return path;
}

/**
 * The globe's tracks, imperatively: one polyline per device at its fixes' altitudes (birds fly), drawn
 * up to the replay clock (the rest faint), and a marker per device with a drop line to the ground that
 * shows its height.
 *
 * Positions are made once per track from the typed arrays (one Cartesian3 per vertex); the line's
 * geometry and vertex buffers are computed in Cesium's web workers. What is drawn shows on the globe's
 * element as data attributes (tests and support read them).
 */
export class TrackLayer {
  private readonly group = new PrimitiveCollection();
  private readonly lines: PrimitiveCollection;
  private readonly drops: PolylineCollection;
  private readonly markers: PointPrimitiveCollection;
  private drawn: { tracks: Drawn[]; positions: Cartesian3[][]; pending: Primitive[] } = { tracks: [], positions: [], pending: [] };
  private readonly box: HTMLElement;
  private exaggeration = 1;

  constructor(private readonly globe: CesiumWidget) {
    this.lines = this.group.add(new PrimitiveCollection());
    this.drops = this.group.add(new PolylineCollection());
    this.markers = this.group.add(new PointPrimitiveCollection());
    this.box = globe.container as HTMLElement;
    globe.scene.primitives.add(this.group);
    globe.scene.postRender.addEventListener(this.checkDrawn);
  }

  /**
   * Draws the lines, heights multiplied by `exaggeration` (a bird 500 m up over a 200 km journey is a
   * hair above the ground at true scale).
   */
  draw(lines: readonly TrackLine[], colorOf: (imei: string, index: number) => string, exaggeration = 1): void {
    this.clear();
    const started = performance.now();
    this.exaggeration = exaggeration;
    const pending: Primitive[] = [];
    const positions: Cartesian3[][] = [];
    const tracks = lines.map((line, i): Drawn => {
      const color = Color.fromCssColorString(colorOf(line.imei, i));
      const path = pathOf(line);
      const vertices = toCartesians(path, exaggeration);
      positions.push(vertices);
      let material: Material | null = null;
      if (path.count >= 2) {
        material = new Material({
          fabric: { uniforms: { color, progress: 1, ahead: AHEAD_ALPHA }, source: TRAIL_SHADER },
          translucent: true,
        });
        const primitive = new Primitive({
          geometryInstances: new GeometryInstance({
            // Long hops are already split along the globe (trackPath): no subdivision here, so the
            // texture coordinate s of vertex j is j / (count - 1), which the replay relies on.
            geometry: new PolylineGeometry({ positions: vertices, width: 2.5, arcType: ArcType.NONE, vertexFormat: PolylineMaterialAppearance.VERTEX_FORMAT }),
          }),
          appearance: new PolylineMaterialAppearance({ material, translucent: true }),
          asynchronous: true,
        });
        this.lines.add(primitive);
        pending.push(primitive);
      }
      // The marker's id is its device: a click on it (scene.pick) names the device.
      const point = this.markers.add({ id: line.imei, color, pixelSize: 11, outlineColor: Color.WHITE, outlineWidth: 2, show: false });
      const drop = this.drops.add({
        positions: [Cartesian3.ZERO, Cartesian3.UNIT_X],
        width: 1.5,
        material: Material.fromType('Color', { color: color.withAlpha(0.7) }),
        show: false,
      });
      return { line, path, material, point, drop, index: -1 };
    });
    this.drawn = { tracks, positions, pending };
    const data = this.box.dataset;
    data.tracks = String(lines.length);
    data.points = String(lines.reduce((sum, line) => sum + line.count, 0));
    data.trackBuildMs = String(Math.round(performance.now() - started));
    data.maxHeight = String(Math.round(lines.reduce((max, line) => Math.max(max, maxHeight(line)), 0)));
    data.tracksDrawn = '0';
    this.globe.scene.requestRender();
  }

  /**
   * The replay: each line drawn up to `time` (null: whole), each marker at its device's fix then (null:
   * its last fix), with a drop line to the ground showing its height.
   */
  place(time: number | null, follow = false): void {
    if (this.group.isDestroyed()) return;
    this.box.dataset.follow = follow ? '1' : '0';
    let shown = 0;
    for (const track of this.drawn.tracks) {
      const { line, path, material, point, drop } = track;
      if (material) material.uniforms.progress = pathProgress(line, path, time);
      const index = time === null ? line.count - 1 : fixAt(line, time);
      track.index = index;
      if (index < 0) {
        point.show = false;
        drop.show = false;
        continue;
      }
      const lon = line.coords[index * 3]!;
      const lat = line.coords[index * 3 + 1]!;
      const height = line.coords[index * 3 + 2]! * this.exaggeration;
      const top = Cartesian3.fromDegrees(lon, lat, height);
      point.position = top;
      point.show = true;
      if (height > 0) drop.positions = [Cartesian3.fromDegrees(lon, lat, 0), top];
      drop.show = height > 0;
      shown++;
    }
    this.box.dataset.markers = String(shown);
    if (follow) this.keepInView();
    this.globe.scene.requestRender();
  }

  /**
   * Following a replay: turns the camera (same heading, pitch and distance) to the markers when one nears
   * the view's edge or is hidden behind the globe.
   */
  private keepInView(): void {
    const positions = this.drawn.tracks.filter((d) => d.index >= 0 && d.point.show).map((d) => d.point.position);
    if (positions.length === 0) return;
    const scene = this.globe.scene;
    const width = scene.canvas.clientWidth;
    const height = scene.canvas.clientHeight;
    const margin = 0.1;
    const inside = positions.every((p) => {
      const at = SceneTransforms.worldToWindowCoordinates(scene, p);
      return at !== undefined && at.x >= width * margin && at.x <= width * (1 - margin) && at.y >= height * margin && at.y <= height * (1 - margin);
    });
    if (inside) return;
    const camera = this.globe.camera;
    const sphere = BoundingSphere.fromPoints(positions);
    const range = Math.max(Cartesian3.distance(camera.positionWC, sphere.center), sphere.radius * 3, MIN_FIT_RANGE);
    camera.flyToBoundingSphere(sphere, { duration: 0, offset: new HeadingPitchRange(camera.heading, camera.pitch, range) });
  }

  /**
   * Frames all the tracks (across the antimeridian too: a sphere, not a rectangle), looking north at a
   * slant so that heights show.
   */
  frame(): void {
    const all = this.drawn.positions.flat();
    if (all.length === 0) return;
    const sphere = BoundingSphere.fromPoints(all);
    // Far enough that the sphere fits the narrower of the view's two angles (a wide map is short: its
    // vertical angle is the smaller), with a margin.
    const frustum = this.globe.camera.frustum as PerspectiveFrustum;
    const angle = Math.min(frustum.fov ?? Math.PI / 3, frustum.fovy ?? Math.PI / 3);
    const range = (sphere.radius / Math.sin(angle / 2)) * 1.25;
    this.globe.camera.flyToBoundingSphere(sphere, {
      duration: 0,
      offset: new HeadingPitchRange(0, -CesiumMath.toRadians(55), Math.max(range, MIN_FIT_RANGE)),
    });
    this.globe.scene.requestRender();
  }

  /** Where a device's marker is: its track, the fix it stands on and the marker's place; null when hidden. */
  markerOf(imei: string): { line: TrackLine; index: number; position: Cartesian3 } | null {
    const track = this.drawn.tracks.find((d) => d.line.imei === imei);
    if (!track || track.index < 0 || !track.point.show) return null;
    return { line: track.line, index: track.index, position: track.point.position };
  }

  clear(): void {
    if (this.group.isDestroyed()) return;
    this.lines.removeAll();
    this.drops.removeAll();
    this.markers.removeAll();
    this.drawn = { tracks: [], positions: [], pending: [] };
    for (const key of ['tracks', 'points', 'trackBuildMs', 'maxHeight', 'tracksDrawn', 'markers', 'markersAt']) delete this.box.dataset[key];
  }

  destroy(): void {
    if (this.globe.isDestroyed()) return;
    this.globe.scene.postRender.removeEventListener(this.checkDrawn);
    this.clear();
    // Removing the group from the scene destroys it with everything in it.
    this.globe.scene.primitives.remove(this.group);
  }

  /** The geometry is made in workers: the element says when every line is on screen. */
  private readonly checkDrawn = (): void => {
    // Where each marker is on screen (tests click it to open its popup; support reads it).
    const at: string[] = [];
    for (const d of this.drawn.tracks) {
      if (d.index < 0 || !d.point.show) continue;
      const xy = SceneTransforms.worldToWindowCoordinates(this.globe.scene, d.point.position);
      if (xy) at.push(`${d.line.imei}:${Math.round(xy.x)},${Math.round(xy.y)}`);
    }
    this.box.dataset.markersAt = at.join(';');
    const { pending } = this.drawn;
    if (this.box.dataset.tracksDrawn !== '0') return;
    if (pending.every((p) => p.isDestroyed() || p.ready)) this.box.dataset.tracksDrawn = this.box.dataset.tracks ?? '0';
  };
}

function toCartesians(path: TrackPath, exaggeration: number): Cartesian3[] {
  const out = new Array<Cartesian3>(path.count);
  const c = path.coords;
  for (let i = 0; i < path.count; i++) out[i] = Cartesian3.fromDegrees(c[i * 3]!, c[i * 3 + 1]!, c[i * 3 + 2]! * exaggeration);
  return out;
}

/** The highest fix of a track, in metres (as reported, whatever the exaggeration). */
function maxHeight(line: TrackLine): number {
  let max = 0;
  for (let i = 0; i < line.count; i++) if (line.coords[i * 3 + 2]! > max) max = line.coords[i * 3 + 2]!;
  return max;
}
