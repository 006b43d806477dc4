import type { IControl, Map as MapLibreMap } from 'maplibre-gl';

/** Outline icons (antd's "expand" and "aim" in spirit), drawn inline: the control is plain DOM. */
const FIT_ICON =
  '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true"><path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5"/></svg>';
const FOLLOW_ICON =
  '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true"><circle cx="12" cy="12" r="6"/><circle cx="12" cy="12" r="1.5" fill="currentColor"/><path d="M12 2v4M12 18v4M2 12h4M18 12h4"/></svg>';

export interface ViewControlLabels {
  fit: string;
  follow: string;
}

/**
 * The map's view buttons, beside its zoom buttons: fit (show every track) and follow (keep the replay's
 * markers in view, a toggle). What they do is the overlay's (TracksOverlay); this is only the buttons.
 */
export class ViewControl implements IControl {
  private readonly box = document.createElement('div');
  private readonly fitButton = document.createElement('button');
  private readonly followButton = document.createElement('button');

  private onFit: () => void = () => {};
  private onFollow: () => void = () => {};

  constructor() {
    this.box.className = 'maplibregl-ctrl maplibregl-ctrl-group wt-map-view-ctrl';
    for (const [button, icon, id, action] of [
      [this.fitButton, FIT_ICON, 'map-fit', () => this.onFit()],
      [this.followButton, FOLLOW_ICON, 'map-follow', () => this.onFollow()],
    ] as const) {
      button.type = 'button';
      button.innerHTML = icon;
      button.dataset.testid = id;
      button.addEventListener('click', action);
      this.box.append(button);
    }
    this.followButton.setAttribute('aria-pressed', 'false');
  }

  /** What the buttons do (the overlay's latest callbacks). */
  setActions(onFit: () => void, onFollow: () => void): void {
    this.onFit = onFit;
    this.onFollow = onFollow;
  }

  onAdd(_map: MapLibreMap): HTMLElement {
    return this.box;
  }

  onRemove(): void {
    this.box.remove();
  }

  setLabels(labels: ViewControlLabels): void {
    for (const [button, label] of [
      [this.fitButton, labels.fit],
      [this.followButton, labels.follow],
    ] as const) {
      button.title = label;
      button.setAttribute('aria-label', label);
    }
  }

  /** Follow is offered only where there is a replay to follow. */
  setFollow(offered: boolean, on: boolean): void {
    // MapLibre's control styles show every button (display: block): hidden by style, not the attribute.
    this.followButton.style.display = offered ? '' : 'none';
    this.followButton.setAttribute('aria-pressed', on ? 'true' : 'false');
    this.followButton.classList.toggle('wt-map-view-ctrl-on', on);
  }

  setFitEnabled(enabled: boolean): void {
    this.fitButton.disabled = !enabled;
  }
}
