// Numbers the specification and the contract fix. Each appears here once, named.
export const limits = {
  /** Toasts (spec §9). */
  toastSuccessMs: 2000,
  toastErrorMs: 4000,
  toastPlainMs: 4000,
  toastMaxVisible: 20,
  meetingToastShortMs: 1500,
  meetingToastMediumMs: 3000,
  /** Meetings (spec §9). */
  defaultMeetingCapacity: 10,
  defaultMeetingName: 'Mooz Meeting',
  videoBitrateBudgetKbps: 2000,
  videoBitrateMinKbps: 150,
  dataChannelBackpressureBytes: 64 * 1024,
  iceCompletionTimeoutMs: 5000,
  channelClosingCheckMs: 5000,
  peerDestroyDelayMs: 1000,
  chatSoundVolume: 0.3,
  chatNotificationMaxChars: 45,
  reconnectGraceMs: 10_000,
  /** Accounts (contract). */
  passwordMinLength: 8,
  otpLength: 6,
  otpTtlSeconds: 600,
  otpMaxAttempts: 5,
  otpResendIntervalSeconds: 60,
  /** Courses and sessions (contract; the numbers the spec leaves open). */
  courseNameMaxLength: 120,
  courseDescriptionMaxLength: 2000,
  /** Minor units. */
  coursePriceMax: 100_000_000,
  courseMaxWeeks: 104,
  sessionMinMinutes: 15,
  sessionMaxMinutes: 480,
  sessionMaxCapacity: 50,
  /** A session can be joined from this many minutes before it starts until it ends. */
  sessionJoinEarlyMinutes: 15,
  /** i18n (spec §9). */
  i18nRetries: 5,
  i18nRetryBaseMs: 350,
  i18nMaxParallelReads: 10,
} as const;

/** What one HTTP request may carry. */
export const httpLimits = {
  /** A JSON body: the largest form (a course with its description, skills and dates) is a few KiB. */
  jsonBodyMaxBytes: 16 * 1024,
  /** A provider webhook's raw body. */
  webhookBodyMaxBytes: 256 * 1024,
  /** Nesting of objects and arrays in a JSON body; our deepest request is 3 levels. */
  jsonMaxDepth: 32,
} as const;

export const languages = ['en', 'fr', 'de', 'pt'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en';

/** Rate limits: [max attempts, window in seconds]. Answered 429 with Retry-After. */
export const rateLimits = {
  loginPerIp: [30, 60],
  loginPerEmail: [10, 15 * 60],
  otpVerifyPerIp: [30, 60],
  mailPerEmail: [1, limits.otpResendIntervalSeconds],
  mailPerEmailHourly: [10, 3600],
  mailPerIp: [30, 3600],
  registerPerIp: [20, 3600],
} as const satisfies Record<string, readonly [number, number]>;
