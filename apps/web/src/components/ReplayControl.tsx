import { CaretRightOutlined, PauseOutlined, StopOutlined } from '@ant-design/icons';
import { formatTime } from '@wildtrack/contract';
import { Button, Select, Slider, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import './ReplayControl.css';
import { REPLAY_SPEEDS, REPLAY_STEPS, stepToTime, timeToStep, type ReplayState } from '../lib/replay';

interface Props {
  replay: ReplayState;
  /** The user's time zone (like +08:00): the clock is shown in it. */
  timeZone: string;
  className?: string;
}

/**
 * Play, pause and scrub a replay of the loaded tracks (lib/replay.ts): every device moves on one clock.
 * Knows no map library; the 2D map and the globe both put it under their view. Its state shows on the
 * element (data-time, data-playing) for tests and support.
 */
export function ReplayControl({ replay, timeZone, className }: Props) {
  const { t } = useTranslation();
  const { extent, time, playing, speed } = replay;
  const disabled = extent === null;
  const shown = time ?? extent?.[1] ?? null;
  return (
    <div
      className={['wt-replay', className].filter(Boolean).join(' ')}
      data-testid="replay"
      data-time={time ?? ''}
      data-playing={playing ? '1' : '0'}
    >
      <Tooltip title={playing ? t('replay.pause') : t('replay.play')}>
        <Button
          type="primary"
          shape="circle"
          aria-label={playing ? t('replay.pause') : t('replay.play')}
          icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
          disabled={disabled}
          onClick={playing ? replay.pause : replay.play}
        />
      </Tooltip>
      <Tooltip title={t('replay.stop')}>
        <Button shape="circle" aria-label={t('replay.stop')} icon={<StopOutlined />} disabled={disabled || time === null} onClick={replay.stop} />
      </Tooltip>
      <Slider
        className="wt-replay-slider"
        ariaLabelForHandle={t('replay.position')}
        min={0}
        max={REPLAY_STEPS}
        step={1}
        disabled={disabled}
        value={extent && shown !== null ? timeToStep(shown, extent) : REPLAY_STEPS}
        onChange={(step: number) => extent && replay.seek(stepToTime(step, extent))}
        tooltip={{ formatter: (step) => (extent && step !== undefined ? formatTime(stepToTime(step, extent), timeZone) : '') }}
      />
      <span className="wt-replay-time" data-testid="replay-time">
        {shown !== null ? formatTime(shown, timeZone) : '—'}
      </span>
      <Select
        size="small"
        aria-label={t('replay.speed')}
        value={speed}
        disabled={disabled}
        onChange={replay.setSpeed}
        options={REPLAY_SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
        style={{ width: 72 }}
      />
    </div>
  );
}
