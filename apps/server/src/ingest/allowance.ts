import { INGEST_MAX_BATCH_BYTES, INGEST_MAX_MEDIA_BYTES } from '@wildtrack/contract';

const MiB = 1024 * 1024;

/**
 * Bytes of request bodies the ingest routes may hold at once in this process (each upload counted at its
 * declared length, or the route's limit when it declares none). Beyond it the device is told to come back
 * later (503 busy) before anything is read, so a crowd of uploads cannot grow the server's memory unbounded.
 */
export const INGEST_IN_FLIGHT_BYTES = 64 * MiB;

/** Seconds a device is told to wait (Retry-After) when the server is busy. */
export const INGEST_RETRY_AFTER_S = 30;

/**
 * The shares of the allowance (issue 26 H3: two connections naming a registered IMEI with a wrong
 * signature and 32 MiB declared held all of it, and every device was told busy for as long as they lasted):
 *
 * - a request whose signature was checked from its headers (INGEST_BODY_HASH_HEADER) is a device's own:
 *   it may use the whole allowance, but one device holds at most a media file and a batch at once;
 * - a request that can only be checked once its body is in (the first protocol, or anyone naming an IMEI)
 *   shares half the allowance with the others like it, and one client address holds at most a quarter,
 *   or a single request of any size when it holds nothing else (a first-protocol device can always send
 *   its largest file). Devices checked from their headers therefore always find half the allowance that
 *   strangers cannot take.
 */
export const INGEST_SHARES = {
  perDevice: INGEST_MAX_MEDIA_BYTES + INGEST_MAX_BATCH_BYTES,
  unchecked: INGEST_IN_FLIGHT_BYTES / 2,
  uncheckedPerAddress: INGEST_IN_FLIGHT_BYTES / 4,
} as const;

/** Who a request's room is counted against. */
export type Holder = { kind: 'device'; deviceId: number } | { kind: 'unchecked'; address: string };

/** A piece of the allowance held by one request; `release` is idempotent. */
export interface Held {
  release(): void;
}

/** The allowance's bookkeeping (one per process): bytes held in all, per device, by unchecked requests and per address. */
export class IngestAllowance {
  private total = 0;
  private unchecked = 0;
  private readonly devices = new Map<number, number>();
  private readonly addresses = new Map<string, number>();

  constructor(private readonly limit = INGEST_IN_FLIGHT_BYTES) {}

  /** Takes `bytes` for the holder, or undefined when the allowance or the holder's share has no room. */
  admit(holder: Holder, bytes: number): Held | undefined {
    if (bytes <= 0) return { release: () => undefined };
    if (this.total + bytes > this.limit) return undefined;
    if (holder.kind === 'device') {
      const had = this.devices.get(holder.deviceId) ?? 0;
      if (had + bytes > INGEST_SHARES.perDevice) return undefined;
      this.devices.set(holder.deviceId, had + bytes);
    } else {
      const had = this.addresses.get(holder.address) ?? 0;
      if (this.unchecked + bytes > INGEST_SHARES.unchecked) return undefined;
      if (had > 0 && had + bytes > INGEST_SHARES.uncheckedPerAddress) return undefined;
      this.addresses.set(holder.address, had + bytes);
      this.unchecked += bytes;
    }
    this.total += bytes;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.total -= bytes;
        if (holder.kind === 'device') dropFrom(this.devices, holder.deviceId, bytes);
        else {
          this.unchecked -= bytes;
          dropFrom(this.addresses, holder.address, bytes);
        }
      },
    };
  }

  /** Bytes held now (tests and logs). */
  held(): { total: number; unchecked: number } {
    return { total: this.total, unchecked: this.unchecked };
  }
}

function dropFrom<K>(map: Map<K, number>, key: K, bytes: number): void {
  const left = (map.get(key) ?? 0) - bytes;
  if (left > 0) map.set(key, left);
  else map.delete(key);
}
