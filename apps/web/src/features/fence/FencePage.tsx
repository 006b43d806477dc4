import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { MAP_ZOOM_MIN, FenceSettingsSchema, issueSentence, type Fence } from '@wildtrack/contract';
import { Alert, App, Button, Empty, List, Popconfirm, Segmented, Space, Spin, Switch, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/ErrorState';
import { useLang } from '../../i18n';
import { DEFAULT_SPAN_DAYS, resolveRange } from '../../lib/positionSelection';
import { useZone } from '../../lib/session';
import { BaseLayer } from '../../map/BaseLayer';
import { BaseLayerNoticeBar, LayerSwitcher } from '../../map/LayerSwitcher';
import { MapBoundary } from '../../map/MapBoundary';
import { MapView } from '../../map/MapView';
import { TracksOverlay } from '../../map/TracksOverlay';
import { useMapTracks } from '../../map/useMapTracks';
import { useBaseLayer } from '../../map/useBaseLayer';
import { refusalOf, useDeleteFence, useEnableFence, useFenceList, useFenceRules, useSaveFence } from './api';
import { useAreaText } from './components/AreaText';
import { FenceDraw, type DrawTool } from './components/FenceDraw';
import { FenceForm } from './components/FenceForm';
import { FenceLayer } from './components/FenceLayer';
import { FenceExport } from './components/FenceExport';
import { ShpImport } from './components/ShpImport';
import { shapeArea, type FenceShape } from './geometry';
import { bodyOf, draftOf, emptyDraft, issuesOf, type FenceDraft } from './model';
import './fence.css';

const NO_IMEIS: string[] = [];

/** Why a fence can't be changed here (an i18n key), or null. */
function readOnlyReason(fence: Fence | null): string | null {
  if (!fence) return null;
  if (fence.Example) return 'fence.reason.exampleFence';
  if (fence.Owner) return 'fence.reason.foreign';
  if (!fence.Editable) return 'fence.reason.notEditable';
  return null;
}

/**
 * The geofence rules screen (§2.1, route not shown: /fence here, from the map dropdown): the
 * organisation's fences on a MapLibre map with their list beside it (name, type, area, enabled switch,
 * devices, delete after confirmation), and a form to draw a new one or change one (§4 Geofence drawing:
 * polygon or circle, finished with a double-click; vertices editable; area shown live), or to import a
 * .shp's polygons (§5).
 */
export function FencePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLang();
  const zone = useZone();
  const areaText = useAreaText();
  const base = useBaseLayer();
  const list = useFenceList();
  // /fence?imei=…: the fences of one device (from its details' FenceCount)
  const [search, setSearch] = useSearchParams();
  const onlyImei = search.get('imei');
  const fences = useMemo(() => (list.data?.List ?? []).filter((f) => !onlyImei || f.Devices.some((d) => d.IMEI === onlyImei)), [list.data, onlyImei]);

  // the form: null while the list shows; a draft (new or of a stored fence) while editing
  const [draft, setDraft] = useState<FenceDraft | null>(null);
  const [editKey, setEditKey] = useState('none');
  const [tool, setTool] = useState<DrawTool>('polygon');
  const [drawing, setDrawing] = useState<FenceShape | null>(null);
  const [tried, setTried] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);

  // the chosen devices' tracks of the last days under the drawing, so a fence is drawn around where they go
  const imeis = draft?.imeis ?? NO_IMEIS;
  const range = useMemo(() => resolveRange({ span: DEFAULT_SPAN_DAYS }, zone), [zone]);
  const tracks = useMapTracks(imeis, range);

  const editing = draft?.id ? (fences.find((f) => f.IdStr === draft.id) ?? null) : null;
  const reason = readOnlyReason(editing);
  const rules = useFenceRules(draft?.id ?? null);
  const save = useSaveFence();
  const enable = useEnableFence();
  const remove = useDeleteFence();

  const issues = useMemo(() => (draft && tried ? issuesOf(draft, lang, zone) : new Map()), [draft, tried, lang, zone]);

  const open = (next: FenceDraft) => {
    setDraft(next);
    setEditKey(`${next.id ?? 'new'}-${Date.now()}`);
    setDrawing(null);
    setTried(false);
    setRefusal(null);
    setSelected(next.id);
  };
  const close = () => {
    setDraft(null);
    setEditKey(`none-${Date.now()}`);
    setDrawing(null);
    setRefusal(null);
  };
  const redraw = () => {
    if (!draft) return;
    setDraft({ ...draft, shape: null });
    setEditKey(`${draft.id ?? 'new'}-${Date.now()}`);
    setDrawing(null);
  };

  const submit = () => {
    if (!draft) return;
    setTried(true);
    setRefusal(null);
    if (issuesOf(draft, lang, zone).size > 0) return;
    save.mutate(
      { id: draft.id, body: bodyOf(draft, zone) },
      {
        onSuccess: (fence) => {
          message.success(t('fence.saved', { name: fence.Label }));
          close();
          setSelected(fence.IdStr);
        },
        onError: (error) => setRefusal(refusalOf(error) ?? t('fence.saveFailed')),
      },
    );
  };

  // the import takes the form's settings (devices, rule, schedule): every fence of the file gets them
  const importSettings = useMemo(() => {
    if (!draft) return { settings: null, problem: t('fence.import.needForm') };
    const { label: _label, shape: _shape, ...settings } = bodyOf(draft, zone);
    const parsed = FenceSettingsSchema.safeParse(settings, { reportInput: true });
    return parsed.success ? { settings, problem: null } : { settings: null, problem: issueSentence(lang, parsed.error.issues[0]!) };
  }, [draft, zone, lang, t]);

  const liveShape = drawing ?? draft?.shape ?? null;
  const liveArea = liveShape ? shapeArea(liveShape) : null;
  const fallback = <div className="wt-map-fallback">{t('map.unavailable')}</div>;
  const drawn = useMemo(() => fences.map((f) => ({ id: f.IdStr, name: f.Label, shape: f.Shape, enabled: f.Enabled === 1 })), [fences]);

  const shapeField = (
    <div className="wt-fence-shape" data-testid="fence-shape">
      {!reason ? (
        <Space wrap>
          <Segmented<DrawTool>
            size="small"
            value={tool}
            onChange={(v) => {
              setTool(v);
              if (draft?.shape) redraw();
            }}
            options={[
              { value: 'polygon', label: t('fence.tool.polygon') },
              { value: 'circle', label: t('fence.tool.circle') },
            ]}
            data-testid="fence-tool"
          />
          {draft?.shape ? (
            <Button size="small" onClick={redraw} data-testid="fence-redraw">
              {t('fence.redraw')}
            </Button>
          ) : null}
        </Space>
      ) : null}
      <div className="wt-fence-shape-state">
        {liveArea !== null ? (
          <Typography.Text data-testid="fence-area">
            {t('fence.areaIs', { area: areaText(liveArea) })}
            {drawing ? ` ${t('fence.stillDrawing')}` : ''}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{tool === 'circle' ? t('fence.howCircle') : t('fence.howPolygon')}</Typography.Text>
        )}
        {draft?.shape && !drawing && !reason ? <Typography.Text type="secondary"> {t('fence.howEdit')}</Typography.Text> : null}
      </div>
    </div>
  );

  return (
    <div className="wt-fence-page" data-testid="fence">
      <div className="wt-fence-map">
        <div className="wt-map-page-bar">
          <LayerSwitcher value={base.chosen} onChange={base.choose} standIn={base.notice} />
        </div>
        <div className="wt-map-page-body">
          <MapBoundary fallback={fallback}>
            <MapView className="wt-map" minZoom={MAP_ZOOM_MIN} fallback={fallback}>
              <BaseLayer layer={base.drawn} onFallback={base.fallBack} />
              <TracksOverlay tracks={tracks.shown} colors={tracks.colors} points="none" />
              <FenceLayer ready={list.isSuccess} fences={drawn} hiddenId={draft && !reason ? draft.id : null} selectedId={selected} onPick={(id) => !draft && setSelected(id)} />
              <FenceDraw
                editKey={editKey}
                shape={draft?.shape ?? null}
                tool={draft && !reason ? tool : null}
                readOnly={!draft || reason !== null}
                onShape={(shape) => setDraft((d) => (d ? { ...d, shape } : d))}
                onDrawing={setDrawing}
              />
            </MapView>
          </MapBoundary>
          <BaseLayerNoticeBar notice={base.notice} className="wt-map-page-notice wt-fence-notice" />
        </div>
      </div>
      <div className="wt-fence-side">
        {draft ? (
          <div className="wt-fence-panel">
            <Typography.Title level={5}>{draft.id ? t('fence.editTitle') : t('fence.newTitle')}</Typography.Title>
            {reason ? <Alert type="info" showIcon message={t(reason)} className="wt-fence-gap" data-testid="fence-reason" /> : null}
            <FenceForm draft={draft} onChange={setDraft} issues={issues} shapeField={shapeField} rules={rules.data?.List} readOnly={reason !== null} />
            {refusal ? <Alert type="error" showIcon message={refusal} className="wt-fence-gap" data-testid="fence-refusal" /> : null}
            <Space className="wt-fence-actions">
              <Tooltip title={reason ? t(reason) : undefined}>
                <Button type="primary" onClick={submit} loading={save.isPending} disabled={reason !== null} data-testid="fence-save">
                  {t('common.save')}
                </Button>
              </Tooltip>
              {!draft.id ? (
                <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)} data-testid="fence-import-open">
                  {t('fence.import.open')}
                </Button>
              ) : null}
              <Button onClick={close} data-testid="fence-cancel">
                {t('common.cancel')}
              </Button>
            </Space>
          </div>
        ) : (
          <FenceList
            onlyDevice={onlyImei ? { imei: onlyImei, onClear: () => setSearch({}, { replace: true }) } : null}
            fences={fences}
            loading={list.isPending}
            error={list.error}
            onRetry={() => void list.refetch()}
            selected={selected}
            areaText={areaText}
            onNew={() => open(emptyDraft())}
            onOpen={(f) => open(draftOf(f))}
            onEnable={(f, on) => enable.mutate({ id: f.IdStr, enabled: on })}
            onDelete={(f) =>
              remove.mutateAsync(f.IdStr).then(
                () => message.success(t('fence.deleted', { name: f.Label })),
                () => undefined,
              )
            }
          />
        )}
      </div>
      <ShpImport
        open={importOpen}
        onClose={() => setImportOpen(false)}
        settings={importSettings.settings}
        settingsProblem={importSettings.problem}
        onImported={(count) => {
          setImportOpen(false);
          message.success(t('fence.import.done', { count }));
          close();
        }}
      />
    </div>
  );
}

interface ListProps {
  /** The list shows one device's fences only. */
  onlyDevice: { imei: string; onClear: () => void } | null;
  fences: readonly Fence[];
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  selected: string | null;
  areaText: (m2: number) => string;
  onNew: () => void;
  onOpen: (fence: Fence) => void;
  onEnable: (fence: Fence, on: boolean) => void;
  onDelete: (fence: Fence) => Promise<unknown>;
}

/** The fences beside the map: name, type, area, enabled, devices; delete after confirmation. */
function FenceList({ onlyDevice, fences, loading, error, onRetry, selected, areaText, onNew, onOpen, onEnable, onDelete }: ListProps) {
  const { t } = useTranslation();
  const header = (
    <div className="wt-fence-list-head">
      <Typography.Title level={5}>{t('fence.listTitle', { count: fences.length })}</Typography.Title>
      <Button type="primary" icon={<PlusOutlined />} onClick={onNew} data-testid="fence-new">
        {t('fence.new')}
      </Button>
      <FenceExport disabled={fences.length === 0} />
      {onlyDevice ? (
        <Tag closable onClose={onlyDevice.onClear} className="wt-fence-only" data-testid="fence-only-device">
          {t('fence.onlyDevice', { imei: onlyDevice.imei })}
        </Tag>
      ) : null}
    </div>
  );
  if (loading)
    return (
      <div className="wt-fence-panel">
        {header}
        <Spin data-testid="fence-list-loading" />
      </div>
    );
  if (error)
    return (
      <div className="wt-fence-panel">
        {header}
        <ErrorState title={t('fence.loadFailed')} error={error} onRetry={onRetry} />
      </div>
    );
  return (
    <div className="wt-fence-panel">
      {header}
      {fences.length === 0 ? (
        <Empty description={t('fence.empty')} data-testid="fence-empty" />
      ) : (
        <List<Fence>
          data-testid="fence-list"
          dataSource={[...fences]}
          rowKey="IdStr"
          renderItem={(f) => {
            const reason = readOnlyReason(f);
            // another organisation's fence with rules on our devices (made under a share): deleting takes our devices out
            const foreign = f.Owner !== null && f.Removable;
            const deleteReason = foreign ? null : reason;
            return (
              <List.Item
                className={f.IdStr === selected ? 'wt-fence-item wt-fence-item-selected' : 'wt-fence-item'}
                data-testid="fence-item"
                data-fence={f.Label}
                actions={[
                  <Tooltip key="on" title={reason ? t(reason) : t('fence.field.enabled')}>
                    <Switch size="small" checked={f.Enabled === 1} disabled={reason !== null} onChange={(on) => onEnable(f, on)} aria-label={t('fence.field.enabled')} data-testid="fence-item-enabled" />
                  </Tooltip>,
                  <Tooltip key="del" title={deleteReason ? t(deleteReason) : foreign ? t('fence.removeDevices') : t('common.delete')}>
                    <Popconfirm
                      title={foreign ? t('fence.removeDevicesConfirm', { name: f.Label, org: f.Owner?.OrgName ?? '' }) : t('fence.deleteConfirm', { name: f.Label })}
                      okText={foreign ? t('fence.removeDevices') : t('common.delete')}
                      cancelText={t('common.cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => onDelete(f)}
                      disabled={deleteReason !== null}
                    >
                      <Button type="text" size="small" danger icon={<DeleteOutlined />} disabled={deleteReason !== null} aria-label={foreign ? t('fence.removeDevices') : t('common.delete')} data-testid="fence-item-delete" />
                    </Popconfirm>
                  </Tooltip>,
                ]}
              >
                <List.Item.Meta
                  title={
                    <a onClick={() => onOpen(f)} data-testid="fence-item-open">
                      {f.Label}
                    </a>
                  }
                  description={
                    <span className="wt-fence-item-desc">
                      {f.Owner ? (
                        <Tag color="orange" data-testid="fence-item-owner">
                          {t('fence.ownedBy', { org: f.Owner.OrgName, name: f.Owner.NickName })}
                        </Tag>
                      ) : null}
                      <Tag>{t(f.Type === 2 ? 'fence.tool.circle' : 'fence.tool.polygon')}</Tag>
                      <span data-testid="fence-item-area">{areaText(f.Area)}</span>
                      {' · '}
                      {t('fence.deviceCount', { count: f.Devices.length })}
                      {f.detail.DeviceRule > 0 ? (
                        <Tag className="wt-fence-sync" color={f.detail.Synchronized === 1 ? 'green' : 'processing'}>
                          {t(f.detail.Synchronized === 1 ? 'fence.sync.synchronized' : 'fence.sync.synchronizing')}
                        </Tag>
                      ) : null}
                    </span>
                  }
                />
              </List.Item>
            );
          }}
        />
      )}
    </div>
  );
}
