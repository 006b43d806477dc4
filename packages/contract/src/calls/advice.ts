import { z } from 'zod';
import { defineCall } from '../call.js';
import { EMAIL_MAX, IMAGE_UPLOAD_MAX_COUNT } from '../constants.js';
import { EMAIL_PATTERN, parseUploadUrl, PhoneSchema, plainLines } from '../validation.js';

/** The longest question text the feedback form takes. */
export const FEEDBACK_QA_MAX = 2000;

const emailRequired = { error: 'validation.email.required' } as const;

/**
 * The feedback form (§2.4 Feedback, §3 Feedback, §5 Feedback, §7.2 /api/Advice/Submit): the e-mail
 * (required, pattern-checked), the phone (optional; when given, the §5 phone rule), the question text qa
 * (required) and up to six pictures uploaded through /api/Image/Upload, their addresses joined by '#'.
 * Whose organisation each picture is the server checks.
 */
export const SubmitAdviceBody = z.object({
  // EmailSchema's rule with a required-message of its own ('Enter an e-mail address.').
  email: z
    .string(emailRequired)
    .trim()
    .min(1, emailRequired)
    .max(EMAIL_MAX, { error: 'validation.email.length' })
    .regex(EMAIL_PATTERN, { error: 'validation.email.invalid' }),
  phone: z.union([z.literal(''), PhoneSchema]).default(''),
  qa: z
    .string({ error: 'validation.feedback.qa' })
    .trim()
    .min(1, { error: 'validation.feedback.qa' })
    .max(FEEDBACK_QA_MAX, { error: 'validation.tooLong' })
    .refine(plainLines.check, { error: plainLines.error }),
  pictures: z
    .string()
    .trim()
    .max((IMAGE_UPLOAD_MAX_COUNT + 1) * 100, { error: 'validation.tooLong' })
    .default('')
    .transform((v) => v.split('#').filter((p) => p !== ''))
    .refine((list) => list.length <= IMAGE_UPLOAD_MAX_COUNT, { error: 'validation.feedback.pictureCount' })
    .refine((list) => list.every((p) => parseUploadUrl(p) !== null), { error: 'validation.imageUrl' }),
});
export type SubmitAdviceInput = z.output<typeof SubmitAdviceBody>;

export const SubmitAdvice = defineCall({
  path: '/api/Advice/Submit',
  auth: 'session',
  access: 'session',
  body: SubmitAdviceBody,
  data: z.null(),
  summary: "Stores the user's feedback: e-mail, phone, question and up to 6 pictures uploaded by the caller's organisation ('#'-joined).",
});
