import Database from 'better-sqlite3';

/** One fix as the specs write it; a column left out takes the value below. */
export interface SeedFix {
  t: number;
  lon: number;
  lat: number;
  alt?: number;
  speed?: number;
  course?: number;
  temperature?: number;
  activity?: number;
  voltage?: number;
  satellites?: number;
  hdop?: number;
  /** Precision grade 1..7 (A..E, N). */
  grade?: number;
}

/**
 * Writes a device's fixes straight into a running server's SQLite file, in one transaction (the server
 * waits on the file's lock meanwhile). Transmitted and received a minute after each pick time, valid.
 */
export function seedFixes(file: string, imei: string, fixes: readonly SeedFix[]): void {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    const device = db.prepare('SELECT id FROM devices WHERE imei = ?').get(imei) as { id: number };
    const insert = db.prepare(
      `INSERT INTO fixes (device_id, pick_time, lon, lat, alt, speed, course, temperature, activity, voltage, channel, satellites, hdop, vdop, grade, valid, tx_time, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, 1.2, ?, 1, ?, ?)`,
    );
    db.transaction(() => {
      for (const f of fixes) {
        insert.run(device.id, f.t, f.lon, f.lat, f.alt ?? 20, f.speed ?? 0, f.course ?? 90, f.temperature ?? 20, f.activity ?? 10, f.voltage ?? 3.9, f.satellites ?? 8, f.hdop ?? 1.0, f.grade ?? 1, f.t + 60_000, f.t + 60_000);
      }
    })();
  } finally {
    db.close();
  }
}
