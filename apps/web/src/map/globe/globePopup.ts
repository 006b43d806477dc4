import { SceneTransforms, type Cartesian3, type CesiumWidget } from 'cesium';

/**
 * A popup on the globe, like MapLibre's on the 2D map (same card, same class names for its content): a
 * box in the globe's element kept over a point of the scene at every frame, with a close button.
 */
export class GlobePopup {
  private readonly box = document.createElement('div');
  private readonly content = document.createElement('div');
  private position: Cartesian3 | null = null;

  constructor(
    private readonly globe: CesiumWidget,
    closeLabel: string,
  ) {
    this.box.className = 'wt-globe-popup wt-fix-popup';
    this.box.dataset.testid = 'globe-popup';
    this.box.hidden = true;
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'wt-globe-popup-close';
    close.textContent = '×';
    close.setAttribute('aria-label', closeLabel);
    close.addEventListener('click', () => this.close());
    this.content.className = 'wt-globe-popup-content';
    this.box.append(close, this.content);
    (globe.container as HTMLElement).append(this.box);
    globe.scene.postRender.addEventListener(this.follow);
  }

  open(position: Cartesian3): void {
    this.position = position;
    this.box.hidden = false;
    this.globe.scene.requestRender();
  }

  isOpen(): boolean {
    return !this.box.hidden;
  }

  setDOMContent(el: HTMLElement): void {
    this.content.replaceChildren(el);
  }

  close(): void {
    this.box.hidden = true;
    this.position = null;
  }

  destroy(): void {
    if (!this.globe.isDestroyed()) this.globe.scene.postRender.removeEventListener(this.follow);
    this.box.remove();
  }

  private readonly follow = (): void => {
    if (!this.position || this.box.hidden) return;
    const at = SceneTransforms.worldToWindowCoordinates(this.globe.scene, this.position);
    if (!at) {
      // Behind the globe.
      this.box.style.visibility = 'hidden';
      return;
    }
    this.box.style.visibility = '';
    this.box.style.transform = `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px) translate(-50%, calc(-100% - 14px))`;
  };
}
