import type { SubmitAdviceInput } from '@wildtrack/contract';
import type { Caller } from '../../http/caller.js';
import type { AdviceRepository, FeedbackRow } from './repository.js';
import { now } from '../../lib/clock.js';

/** Feedback (§2.4 Feedback, /api/Advice/Submit) and the operators' reading of it (`wildtrack list-feedback`). */
export class AdviceService {
  constructor(
    private readonly repo: AdviceRepository,
    /** Refuses (naming the field) a picture that is not an existing upload of the caller's organisation. */
    private readonly checkOwnPicture: (caller: Caller, url: string, field: readonly PropertyKey[]) => void,
  ) {}

  async submit(caller: Caller, input: SubmitAdviceInput): Promise<void> {
    input.pictures.forEach((url, i) => this.checkOwnPicture(caller, url, ['pictures', i]));
    await this.repo.insert({
      user_id: caller.session.userId,
      org_id: caller.session.orgId,
      email: input.email,
      phone: input.phone,
      qa: input.qa,
      pictures: input.pictures.join('#'),
      lang: caller.lang,
      created_at: now(),
    });
  }

  list(limit: number, since?: number): Promise<FeedbackRow[]> {
    return this.repo.list(limit, since);
  }
}
