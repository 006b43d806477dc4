import { Pagination } from 'antd';
import { DEFAULT_PAGE_SIZE, type ImageFix, PAGE_SIZE_OPTIONS } from '@wildtrack/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaAll } from '../api';
import { ImageViewer } from './ImageViewer';
import { CapNotice, ListState, type MediaPanelProps } from './states';

/**
 * The chosen devices' images over the range, newest first, as a grid of the server's thumbnails in pages
 * of §9's sizes; a click opens the viewer, whose arrows go on across pages.
 */
export function ImageGrid({ imeis, names, start, end }: MediaPanelProps) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState({ currentPage: 1, pageSize: DEFAULT_PAGE_SIZE as number });
  /** The viewer's image: its place in the whole list. */
  const [open, setOpen] = useState<number | null>(null);
  const listKey = `${imeis.join(',')}|${start}|${end}`;
  const [forList, setForList] = useState(listKey);
  if (forList !== listKey) {
    setForList(listKey);
    setPaging((p) => ({ ...p, currentPage: 1 }));
    setOpen(null);
  }
  const query = useMediaAll({ kind: 'image', imeis, start, end });
  const all: ImageFix[] = query.data?.List ?? [];
  const from = (paging.currentPage - 1) * paging.pageSize;
  const page = all.slice(from, from + paging.pageSize);

  const show = (i: number): void => {
    setOpen(i);
    // the viewer's image stays on the page shown behind it
    setPaging((p) => ({ ...p, currentPage: Math.floor(i / p.pageSize) + 1 }));
  };
  const fix = open !== null ? all[open] : undefined;

  return (
    <div data-testid="media-images" data-total={query.data?.Total ?? ''} aria-busy={query.isFetching}>
      {query.data && query.data.Total > 0 ? (
        <>
          <CapNotice shown={all.length} total={query.data.Total} />
          <ul className="wt-media-grid" aria-label={t('media.kind.image')}>
            {page.map((f, i) => (
              <li key={f.Url}>
                <button type="button" className="wt-media-thumb" data-testid="media-thumb" onClick={() => show(from + i)} aria-label={t('media.openImage', { time: f.PickTime })}>
                  <img src={f.ThumbUrl} alt="" loading="lazy" decoding="async" />
                  <span className="wt-media-thumb-time">{f.PickTime}</span>
                  {imeis.length > 1 ? <span className="wt-media-thumb-device">{names.get(f.IMEI) ?? f.IMEI}</span> : null}
                </button>
              </li>
            ))}
          </ul>
          <Pagination
            size="small"
            align="end"
            current={paging.currentPage}
            pageSize={paging.pageSize}
            total={all.length}
            showSizeChanger
            showQuickJumper
            pageSizeOptions={PAGE_SIZE_OPTIONS.map(String)}
            showTotal={(total) => t('media.total', { count: total })}
            onChange={(currentPage, pageSize) => setPaging({ currentPage: pageSize === paging.pageSize ? currentPage : 1, pageSize })}
          />
        </>
      ) : (
        <ListState query={query} empty={t('media.noImages')} />
      )}
      {fix && open !== null ? (
        <ImageViewer
          fix={fix}
          device={names.get(fix.IMEI) ?? fix.IMEI}
          hasPrev={open > 0}
          hasNext={open < all.length - 1}
          onPrev={() => show(open - 1)}
          onNext={() => show(open + 1)}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </div>
  );
}
