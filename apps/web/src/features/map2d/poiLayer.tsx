import { useQueries } from '@tanstack/react-query';
import { DeviceType, GetPoiList, type Poi } from '@wildtrack/contract';
import maplibregl from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api';
import { useSignedIn } from '../../lib/session';
import { useMap } from '../../map/MapView';

/**
 * Whether a device of this type records points of interest: only field phones do (§3 Device Type "mobile
 * phone"; docs/ingest.md "Field records (phones)": a ranger's phone sends them in its batch, and the
 * simulator's phone is the only sample that does). A tag or a VHF receiver never has any to ask for.
 */
export function canRecordPois(type: number): boolean {
  return type === DeviceType.Phone;
}

/**
 * The chosen devices whose POIs are worth asking for: those the tree knows as phones. A device the tree does
 * not hold (yet: it is loading) is not asked for.
 */
export function poiDevices(imeis: readonly string[], typeOf: ReadonlyMap<string, number>): string[] {
  return imeis.filter((imei) => {
    const type = typeOf.get(imei);
    return type !== undefined && canRecordPois(type);
  });
}

/** The given devices' POIs in the range (a phone's few a day: the first 100 of each); pass only phones (poiDevices). */
export function useMapPois(imeis: readonly string[], range: { start: string; end: string }, zone: string, enabled: boolean) {
  const signedIn = useSignedIn();
  return useQueries({
    queries: imeis.map((imei) => ({
      queryKey: ['field', 'pois', 'map', imei, range.start, range.end, zone] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        call(GetPoiList, { imei, startTime: range.start, endTime: range.end, timeZone: zone, currentPage: 1, pageSize: 100 }, { loading: false, repeatCheck: false, signal }),
      enabled: enabled && signedIn && range.start !== '' && range.end !== '',
      staleTime: 60_000,
    })),
    // Kept the same while the answers are (structural sharing): the layer's data is set again only on a change.
    combine: combinePois,
  });
}

function combinePois(results: readonly { data?: { List: Poi[] } | undefined; isError: boolean }[]): { pois: Poi[]; error: boolean } {
  return { pois: results.flatMap((r) => r.data?.List ?? []), error: results.some((r) => r.isError) };
}

/** The popup of one POI: its name, target, who recorded it when, its description and its photos. */
function poiCard(p: Poi, t: (key: string, options?: Record<string, unknown>) => string): HTMLElement {
  const el = document.createElement('div');
  el.className = 'wt-poi-card';
  el.dataset.testid = 'poi-popup';
  const title = document.createElement('strong');
  title.textContent = p.Name;
  el.append(title);
  const line = (text: string) => {
    if (!text) return;
    const div = document.createElement('div');
    div.textContent = text;
    el.append(div);
  };
  line(p.Target);
  line(t('map2d.poiRecorded', { time: p.RecordTime, name: p.UserName || p.UserIdStr }));
  line(p.Address);
  line(p.Description);
  if (p.Photos.length > 0) {
    const photos = document.createElement('div');
    photos.className = 'wt-poi-photos';
    photos.setAttribute('aria-label', t('map2d.poiPhotos'));
    for (const url of p.Photos) {
      const a = document.createElement('a');
      a.href = url;
      a.target = '_blank';
      a.rel = 'noopener';
      const img = document.createElement('img');
      img.src = url;
      img.alt = p.Name;
      // Sized before it loads (the phones' photos are 4:3), so the popup is placed with its final height.
      img.width = 120;
      img.height = 90;
      a.append(img);
      photos.append(a);
    }
    el.append(photos);
  }
  return el;
}

/** The least zoom at which POIs are drawn (zoom 6 spans ~1,500 km across a laptop screen). */
export const POI_MIN_ZOOM = 6;

/**
 * An overlay: the points of interest field phones recorded (§3 POI), each a marker button (they are few: a
 * ranger's handful a day) that opens a popup of the POI and its photos. Renders nothing itself; owns its
 * markers and popup. The map's element carries how many there are (data-pois) and how many show at its
 * zoom (data-pois-shown).
 */
export function PoiLayer({ pois }: { pois: readonly Poi[] }) {
  const map = useMap();
  const { t } = useTranslation();
  const latest = useRef(t);
  useEffect(() => {
    latest.current = t;
  }, [t]);

  useEffect(() => {
    const popup = new maplibregl.Popup({ closeButton: true, maxWidth: '300px', className: 'wt-poi-popup', offset: 10 });
    const markers = pois.map((p) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'wt-poi-marker';
      button.dataset.poi = p.IdStr;
      button.setAttribute('aria-label', p.Name);
      button.title = p.Name;
      button.addEventListener('click', (e) => {
        e.stopPropagation();
        popup.setLngLat([p.Longitude, p.Latitude]).setDOMContent(poiCard(p, latest.current)).addTo(map);
      });
      return new maplibregl.Marker({ element: button }).setLngLat([p.Longitude, p.Latitude]).addTo(map);
    });
    map.getContainer().dataset.pois = String(pois.length);
    // A field record is local: below POI_MIN_ZOOM its markers are hidden (at a continent's zoom they sat
    // on the position clusters and took their clicks).
    const fit = (): void => {
      const hide = map.getZoom() < POI_MIN_ZOOM;
      for (const m of markers) m.getElement().style.visibility = hide ? 'hidden' : '';
      if (hide) popup.remove();
      map.getContainer().dataset.poisShown = hide ? '0' : String(pois.length);
    };
    fit();
    map.on('zoomend', fit);
    return () => {
      map.off('zoomend', fit);
      popup.remove();
      for (const m of markers) m.remove();
      delete map.getContainer().dataset.pois;
      delete map.getContainer().dataset.poisShown;
    };
  }, [map, pois]);

  return null;
}
