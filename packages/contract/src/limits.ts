// Numbers the specification and the contract fix. Each appears here once, named: search this file
// for capacity, trial, otp or bitrate to find the one place a number lives.
export const limits = {
  /** The range of the teacher dashboard's upcoming classes: the dashboard says it and links to it. */
  upcomingWindowDays: 7,
  /** Toasts: success 2 s, errors and plain ones 4 s, loading ones until dismissed; at most 20 on screen. */
  toastSuccessMs: 2000,
  toastErrorMs: 4000,
  toastPlainMs: 4000,
  toastMaxVisible: 20,
  meetingToastShortMs: 1500,
  meetingToastMediumMs: 3000,
  /** Meetings and class sessions (a session is a meeting room): the capacity counts everyone in the room. */
  defaultMeetingCapacity: 10,
  meetingMinCapacity: 2,
  /** The largest room of all: with an SFU (contract "Large classes and TURN"); forms and schemas allow up to this. */
  meetingMaxCapacity: 200,
  /** The largest room without an SFU: a mesh beyond this no longer fits ordinary uplinks, whatever the bitrate floor. */
  meshMaxCapacity: 10,
  /** MESH_MAX_PEOPLE's default: a room with more people than this moves to the SFU when there is one. */
  defaultMeshMaxPeople: 4,
  defaultMeetingName: 'Mooz Meeting',
  /** Each video sender's bitrate budget: this many kbps divided by the peer connections, at least the minimum. */
  videoBitrateBudgetKbps: 2000,
  videoBitrateMinKbps: 150,
  dataChannelBackpressureBytes: 64 * 1024,
  iceCompletionTimeoutMs: 5000,
  channelClosingCheckMs: 5000,
  peerDestroyDelayMs: 1000,
  chatSoundVolume: 0.3,
  chatNotificationMaxChars: 45,
  /** The longest chat message a peer sends or shows. */
  chatMaxLength: 2000,
  reconnectGraceMs: 10_000,
  /** Accounts (contract). */
  passwordMinLength: 8,
  passwordMaxLength: 128,
  nameMaxLength: 100,
  /** RFC 5321's longest address. */
  emailMaxLength: 254,
  /** The one-time code: this many digits, valid this long, burnt after this many wrong tries. */
  otpLength: 6,
  otpTtlSeconds: 600,
  otpMaxAttempts: 5,
  otpResendIntervalSeconds: 60,
  /** A new student's trial length: the default of the server's TRIAL_DAYS. */
  defaultTrialDays: 7,
  /** Courses and sessions (contract; the numbers the spec leaves open). */
  courseNameMaxLength: 120,
  courseDescriptionMaxLength: 2000,
  /** Minor units (paise): at least 1.00, so that checkout has something to charge. */
  coursePriceMin: 100,
  coursePriceMax: 100_000_000,
  courseSkillsMax: 20,
  courseSkillMaxLength: 40,
  courseMinWeeks: 1,
  courseMaxWeeks: 104,
  sessionMinMinutes: 15,
  sessionMaxMinutes: 480,
  /** A session can be joined from this many minutes before it starts until it ends. */
  sessionJoinEarlyMinutes: 15,
  /** A session's students and teacher are mailed a reminder with its join link this many minutes before it starts. */
  reminderLeadMinutes: 15,
  /** A calendar feed lists sessions from this many days back (and every one to come). */
  calendarFeedPastDays: 60,
  /** The most sessions one feed lists (the soonest to come first kept). */
  calendarFeedMaxEvents: 1000,
  /** The reason a teacher gives when cancelling a session, mailed to its students. */
  cancelReasonMaxLength: 500,
  /**
   * Batches: seats sold per batch. A batch's sessions are meetings of its students and the teacher,
   * so by default a batch fills a default room (10 people) and at most a largest one.
   */
  defaultBatchSeats: 9,
  batchSeatsMax: 49,
  /** The length of a batch's generated sessions unless its teacher says otherwise. */
  defaultBatchSessionMinutes: 60,
  /**
   * Batches per course: each brings up to duration_weeks × 5 sessions, so a course's lists (weeks ×
   * times) cannot open thousands of them in one request.
   */
  courseBatchesMax: 24,
  /** The zone a course's batch times are given in unless its teacher says otherwise. */
  defaultCourseTimeZone: 'Asia/Kolkata',
  /**
   * Translation files: a failed read is retried this many times, the delay doubling from the base;
   * at most this many reads at once.
   */
  i18nRetries: 5,
  i18nRetryBaseMs: 350,
  i18nMaxParallelReads: 10,
} as const;

/** A one-time code as typed: exactly `limits.otpLength` digits. */
export const otpPattern = new RegExp(`^\\d{${limits.otpLength}}$`);

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
  /**
   * Logins count failures only (a wrong password, an unknown email); a success takes its attempt back.
   * From one address, whatever the emails: a fixed window.
   */
  loginFailuresPerIp: [100, 15 * 60],
  /**
   * For one email from one address: this many failures in a row go through at once, remembered this
   * long after the first of them; a success forgets them. A stranger's failures from elsewhere never
   * touch the owner's pair.
   */
  loginFailuresPerPair: [5, 60 * 60],
  /**
   * Beyond those, slow down rather than lock: one attempt per this wait, which doubles with each
   * further failure up to `loginWaitMaxSeconds`.
   */
  loginWaitPerPair: [1, 30],
  otpVerifyPerIp: [30, 60],
  mailPerEmail: [1, limits.otpResendIntervalSeconds],
  mailPerEmailHourly: [10, 3600],
  mailPerIp: [30, 3600],
  registerPerIp: [20, 3600],
} as const satisfies Record<string, readonly [number, number]>;

/** The longest wait `loginWaitPerPair` grows to: 30 s, 1, 2, 4, then 5 minutes. */
export const loginWaitMaxSeconds = 5 * 60;
