import type { Lang, VersionInfo, VersionRegion } from '@wildtrack/contract';
import pkg from '../../../package.json' with { type: 'json' };
import changelog from './changelog.json' with { type: 'json' };

/** A release's notes as shipped in changelog.json (newest first), in both languages. */
export interface ChangelogEntry {
  version: string;
  date: string;
  zh: string[];
  en: string[];
}

export interface VersionConfig {
  /** The download host of each region (no trailing slash). */
  downloadHosts: Record<VersionRegion, string>;
  /** The build the server was made from (WILDTRACK_BUILD), '' when not given. */
  build: string;
}

/** The version page (§2.4 Version): tag, changes in the caller's language, the region's app downloads. */
export class VersionService {
  constructor(
    private readonly config: VersionConfig,
    private readonly changes: readonly ChangelogEntry[] = changelog,
    private readonly version: string = pkg.version,
  ) {}

  info(lang: Lang, region: VersionRegion): VersionInfo {
    const host = this.config.downloadHosts[region].replace(/\/+$/, '');
    return {
      Version: this.version,
      Build: this.config.build,
      Region: region,
      Changes: this.changes.map((c) => ({ Version: c.version, Date: c.date, Items: c[lang] })),
      Downloads: [
        { Platform: 'android', Url: `${host}/wildtrack/android/wildtrack-${this.version}.apk` },
        { Platform: 'ios', Url: `${host}/wildtrack/ios/` },
      ],
    };
  }
}
