import { DeleteOutlined, FilterOutlined, HistoryOutlined } from '@ant-design/icons';
import type { Fix } from '@wildtrack/contract';
import { App, Badge, Button, Grid, Space, Spin, Splitter, Switch, Tooltip } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { ExportButton } from '../../../components/ExportButton';
import { useServerTable } from '../../../components/serverTable';
import { useBoxHeight } from '../../../components/useBoxHeight';
import { TimeRangePicker } from '../../../components/TimeRangePicker';
import type { DeviceEntry } from '../../../widgets/device-tree';
import { getViewContext, markExplicit, resolveRange, setTrackTable, usePositionSelection } from '../../../lib/positionSelection';
import { useZone } from '../../../lib/session';
import { useTracks } from '../../../lib/tracks';
import { countOlder, useFixPage, useMarkInvalid, type FixQuery, type FixSortField } from '../api';
import { activeFilterCount, idsToMark, locateStep, pageOf, rowPosition, toFilterDraft, toPositionFilter, trackIndexOf, type BoxChoice, type FilterDraft } from '../model';
import { ConvertedInvalidDrawer } from './ConvertedInvalidDrawer';
import { FixDetail } from './FixDetail';
import { FixFilters } from './FixFilters';
import { FixColumnChooser } from './FixColumnChooser';
import { FixTable } from './FixTable';
import { JumpToData } from './JumpToData';
import { tableWidth, useColumnChoice } from './fixColumns';
import type { PointColoring } from './TrackMap';

const TrackMap = lazy(() => import('./TrackMap'));

interface Props {
  entry: DeviceEntry;
  name: string;
}

/** A fix the map picked, being looked for in the table's pages (at most a few pages are tried). */
interface Locating {
  id: string;
  tries: number;
}

/**
 * The table panel's share (%) of the split: the columns' width, a vertical scroll bar and the panel's
 * border, between 50 and 77 % (the map keeps the rest); 60 % until the split's width is known.
 */
export function tablePanelShare(columnsWidth: number, splitWidth: number): number {
  if (splitWidth <= 0) return 60;
  return Math.ceil(Math.min(77, Math.max(50, ((columnsWidth + 16) / splitWidth) * 100)));
}

/** The width of a box (0 until it is laid out), kept as the window resizes. */
function useBoxWidth(box: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const target = box.current;
    if (!target) return;
    const read = () => setWidth(Math.floor(target.getBoundingClientRect().width));
    read();
    const observer = new ResizeObserver(read);
    observer.observe(target);
    return () => observer.disconnect();
  }, [box]);
  return width;
}

/** The table's body height in a panel of this height (header row and pager taken off). */
const tableHeight = (panel: number): number => Math.max(160, panel - 152);

/**
 * One device's fixes: the range and filters, the table and the map side by side with one chosen fix
 * between them (its detail under the map), marking fixes invalid, and the list of fixes marked before.
 */
export function TrackView({ entry, name }: Props) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const screens = Grid.useBreakpoint();
  const zone = useZone();
  const { range, setRange } = usePositionSelection();
  const { start, end } = resolveRange(range, zone);
  const device = entry.device;
  const imei = device.IMEI;
  const canMark = entry.permission.EditFix;
  const hasSecondLevel = device.SecondLevelFix === 1;

  // The table opens as the URL (or this session) last had it for this device: its filters, sort and page.
  const [kept] = useState(() => {
    const table = getViewContext().table;
    return table && table.imei === imei ? table : null;
  });
  const [filter, setFilter] = useState<FilterDraft>(() => toFilterDraft(kept?.filter ?? {}));
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [everySecond, setEverySecond] = useState(false);
  const secondLevel = hasSecondLevel && everySecond ? 'all' : 'avg';
  const positionFilter = useMemo(() => toPositionFilter(filter), [filter]);
  const query: FixQuery = useMemo(() => ({ imei, start, end, secondLevel, filter: positionFilter }), [imei, start, end, secondLevel, positionFilter]);

  // A new range, filter or second-level mode starts again at the first page with nothing chosen.
  const queryId = JSON.stringify(query);
  const { paging, setPaging } = useServerTable<FixSortField>(
    queryId,
    kept ? { currentPage: kept.page, pageSize: kept.pageSize, sortField: kept.sortField, sortOrder: kept.sortOrder } : undefined,
  );
  // ... and is kept there as it changes (lib/contextUrl writes it into /track's URL)
  const { currentPage, pageSize, sortField, sortOrder } = paging;
  useEffect(() => {
    setTrackTable({ imei, page: currentPage, pageSize, sortField, sortOrder, filter: positionFilter });
  }, [imei, currentPage, pageSize, sortField, sortOrder, positionFilter]);
  const [shownFor, setShownFor] = useState(queryId);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlyMap<string, Fix>>(new Map());
  const [locating, setLocating] = useState<Locating | null>(null);
  if (shownFor !== queryId) {
    setShownFor(queryId);
    setActiveId(null);
    setSelected(new Map());
    setLocating(null);
  }

  const page = useFixPage({ ...query, ...paging });
  const { tracks, isFetching: trackLoading, error: trackError } = useTracks({ imeis: [imei], start, end, secondLevel, filter: positionFilter });
  const track = tracks.find((tr) => tr.imei === imei);
  const rows = useMemo(() => page.data?.List ?? [], [page.data]);
  const total = page.data?.Total ?? 0;

  const [coloring, setColoring] = useState<PointColoring>('grade');
  const [flyTo, setFlyTo] = useState<{ lon: number; lat: number } | null>(null);
  const activeIndex = activeId ? trackIndexOf(track, activeId) : -1;

  // ---- table -> map ----
  const activate = (fix: Fix): void => {
    setActiveId(fix.Id);
    setLocating(null);
    const i = trackIndexOf(track, fix.Id);
    if (track && i >= 0) setFlyTo({ lon: track.lonLat[2 * i]!, lat: track.lonLat[2 * i + 1]! });
  };

  // ---- map -> table: the page holding the picked fix, in time order ----
  const scrollTo = useRef<string | null>(null);
  const pick = async (index: number): Promise<void> => {
    if (!track || index < 0 || index >= track.count) return;
    const time = track.times[index]!;
    const id = String(time);
    setActiveId(id);
    scrollTo.current = id;
    if (rows.some((r) => r.Id === id)) return;
    // Another sort can't say where a time stands: the table goes back to time order.
    const order = !paging.sortField || paging.sortField === 'PickTime' ? (paging.sortOrder ?? 'descend') : 'descend';
    try {
      const older = await countOlder(query, time, zone);
      const position = rowPosition(older, total, order);
      setPaging((p) => ({ ...p, currentPage: pageOf(position, p.pageSize), ...(order === 'descend' && p.sortField !== 'PickTime' ? { sortField: undefined, sortOrder: undefined } : {}) }));
      setLocating({ id, tries: 0 });
    } catch {
      // the client has said what went wrong; the fix stays ringed on the map
    }
  };

  // The counted page may be one off (fixes within the same second, a run cut by the range): once the
  // page has come, the neighbour towards the fix is tried, a few times at most.
  if (locating && !page.isFetching && page.data) {
    const step = locateStep(locating.id, page.data.List, page.data.Total, paging);
    if (typeof step !== 'number' || locating.tries >= 3) setLocating(null);
    else {
      setLocating({ id: locating.id, tries: locating.tries + 1 });
      setPaging({ ...paging, currentPage: step });
    }
  }

  // A fix picked on the map is scrolled into view once its row shows.
  const tableBox = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const id = scrollTo.current;
    if (!id || !rows.some((r) => r.Id === id)) return;
    scrollTo.current = null;
    const row = tableBox.current?.querySelector(`tr[data-row-key="${id}"]`);
    row?.scrollIntoView({ block: 'nearest' });
  }, [rows, activeId]);

  // ---- marking ----
  const mark = useMarkInvalid();
  const selectRows = ({ add, remove }: { add: Fix[]; remove: string[] }): void => {
    const next = new Map(selected);
    for (const f of add) next.set(f.Id, f);
    for (const id of remove) next.delete(id);
    setSelected(next);
  };
  /**
   * Asks before marking (irreversible, §4): `count` rows or points chosen, standing for `ids`; the same
   * confirmation for the table's rows and a box drawn on the map.
   */
  const confirmMarkIds = (ids: string[], count: number, note: string | null, after: () => void): void => {
    modal.confirm({
      title: t('track.mark.title', { count }),
      content: (
        <div data-testid="mark-confirm">
          <p>{t('track.mark.irreversible')}</p>
          {ids.length > count ? <p>{t('track.mark.groups', { count: ids.length })}</p> : null}
          {note ? <p data-testid="mark-confirm-note">{note}</p> : null}
        </div>
      ),
      okText: t('track.mark.ok'),
      okButtonProps: { danger: true, 'data-testid': 'mark-confirm-ok' },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const reply = await mark.mutateAsync({ imei, ids });
          void message.success(t('track.mark.done', { count: reply.Count }));
          after();
        } catch {
          // refused or failed: the client has shown why
        }
      },
    });
  };
  const confirmMark = (): void => {
    const chosen = [...selected.values()];
    confirmMarkIds(idsToMark(chosen), chosen.length, null, () => setSelected(new Map()));
  };
  // A box drawn on the map: its valid single fixes, after the same confirmation.
  const markBox = ({ ids, averaged }: BoxChoice): void => {
    const note = averaged > 0 ? t('track.select.averaged', { count: averaged }) : null;
    if (ids.length === 0) {
      void message.info(note ?? t('track.select.nothing'));
      return;
    }
    confirmMarkIds(ids, ids.length, note, () => undefined);
  };
  const markBlocked = !canMark ? t('track.mark.noRight') : selected.size === 0 ? t('track.mark.pickRows') : null;

  const [convertedOpen, setConvertedOpen] = useState(false);
  const [columnChoice, setColumnChoice] = useColumnChoice();
  // A dragged column's width shows at once; it is kept when dropped.
  const [dragWidths, setDragWidths] = useState<typeof columnChoice.widths>({});
  const shownChoice = useMemo(() => ({ ...columnChoice, widths: { ...columnChoice.widths, ...dragWidths } }), [columnChoice, dragWidths]);

  // ---- layout ----
  const [splitBox, panelHeight] = useBoxHeight(520);
  const splitWidth = useBoxWidth(splitBox);
  // The table panel is as wide as its columns need (the checkbox column counted once the device's
  // rights are known, the split's width as laid out now) until the user drags the split: from then on
  // the sizes are the user's.
  const wide = screens.lg !== false;
  const [dragged, setDragged] = useState<{ wide: boolean; sizes: number[] } | null>(null);
  const draggedSizes = dragged && dragged.wide === wide ? dragged.sizes : null;
  const neededShare = splitWidth > 0 ? tablePanelShare(tableWidth(columnChoice, canMark), splitWidth) : null;
  const filtersInUse = activeFilterCount(filter);

  const emptyText = page.isPending
    ? t('common.loading')
    : filtersInUse > 0
      ? t('track.noMatch')
      : <JumpToData imei={imei} onRange={setRange} />;

  const table =
    page.isError && !page.data ? (
      <ErrorState title={t('track.loadError')} error={page.error} onRetry={() => void page.refetch()} />
    ) : (
      <div ref={tableBox} className="wt-track-table" data-total={total} data-page={paging.currentPage} data-locating={locating ? '1' : '0'}>
        <div className="wt-track-table-bar">
          <Space size={8}>
            <Tooltip title={markBlocked}>
              <Button size="small" danger icon={<DeleteOutlined />} data-testid="mark-invalid" disabled={markBlocked !== null} onClick={confirmMark}>
                {selected.size > 0 ? t('track.mark.buttonCount', { count: selected.size }) : t('track.mark.button')}
              </Button>
            </Tooltip>
            {selected.size > 0 ? (
              <Button size="small" type="link" onClick={() => setSelected(new Map())}>
                {t('track.mark.clear')}
              </Button>
            ) : null}
          </Space>
          <Space size={8} wrap>
            {hasSecondLevel ? (
              <label className="wt-track-switch">
                <Switch size="small" data-testid="every-second" checked={everySecond} onChange={setEverySecond} />
                <Tooltip title={t('track.everySecondHelp')}>
                  <span>{t('track.everySecond')}</span>
                </Tooltip>
              </label>
            ) : null}
            <FixColumnChooser value={columnChoice} onChange={setColumnChoice} />
          </Space>
        </div>
        <FixTable
          rows={rows}
          total={total}
          loading={page.isFetching}
          paging={paging}
          onPaging={(p) => {
            setLocating(null);
            setPaging(p);
            markExplicit();
          }}
          activeId={activeId}
          onActivate={activate}
          selectedIds={canMark ? [...selected.keys()] : null}
          onSelectRows={selectRows}
          emptyText={emptyText}
          height={tableHeight(wide ? panelHeight : Math.round(panelHeight * 0.55))}
          choice={shownChoice}
          onResize={(column, width, done) => {
            if (!done) {
              setDragWidths((w) => ({ ...w, [column]: width }));
              return;
            }
            setDragWidths({});
            setColumnChoice({ ...columnChoice, widths: { ...columnChoice.widths, [column]: width } });
          }}
        />
      </div>
    );

  const map = (
    <Suspense
      fallback={
        <div className="wt-track-map wt-track-map-loading">
          <Spin />
        </div>
      }
    >
      <TrackMap
        track={track}
        coloring={coloring}
        onColoring={setColoring}
        activeIndex={activeIndex}
        flyTo={flyTo}
        onPick={(i) => void pick(i)}
        zone={zone}
        loading={trackLoading}
        failed={!!trackError}
        onBoxSelect={canMark ? markBox : undefined}
      />
    </Suspense>
  );

  return (
    <div className="wt-track-view">
      <div className="wt-track-toolbar">
        <Space wrap size={[12, 8]}>
          <TimeRangePicker value={range} onChange={setRange} />
          <Badge count={filtersInUse} size="small" color="#0f766e">
            <Button icon={<FilterOutlined />} data-testid="filters-toggle" aria-expanded={filtersOpen} type={filtersOpen ? 'primary' : 'default'} ghost={filtersOpen} onClick={() => setFiltersOpen(!filtersOpen)}>
              {t('track.filter.title')}
            </Button>
          </Badge>
        </Space>
        <Space wrap size={8}>
          <ExportButton imei={imei} name={name} kind="fix" start={start} end={end} canDownload={entry.permission.DownloadData} />
          <Button className="wt-track-history" icon={<HistoryOutlined />} data-testid="converted-open" onClick={() => setConvertedOpen(true)}>
            {t('track.converted.button')}
          </Button>
        </Space>
      </div>
      {filtersOpen ? (
        <FixFilters
          value={filter}
          onApply={(next) => {
            setFilter(next);
            markExplicit();
          }}
        />
      ) : null}
      <div ref={splitBox} className="wt-track-split" data-testid="track-split">
        {wide && neededShare === null ? null : (
          <Splitter layout={wide ? 'horizontal' : 'vertical'} onResize={(sizes) => setDragged({ wide, sizes })}>
            {/* The table as wide as its columns need (the compact set fits at 1280 px), at most 77 %, until dragged. */}
            <Splitter.Panel size={draggedSizes ? draggedSizes[0] : wide && neededShare !== null ? `${neededShare}%` : '60%'} min="30%" max="80%">
              {table}
            </Splitter.Panel>
            <Splitter.Panel size={draggedSizes ? draggedSizes[1] : undefined} min="20%">
              <div className="wt-track-side">
                {map}
                {activeId ? <FixDetail key={activeId} imei={imei} id={activeId} row={rows.find((r) => r.Id === activeId)} onClose={() => setActiveId(null)} /> : null}
              </div>
            </Splitter.Panel>
          </Splitter>
        )}
      </div>
      <ConvertedInvalidDrawer imei={imei} name={name} open={convertedOpen} onClose={() => setConvertedOpen(false)} />
    </div>
  );
}
