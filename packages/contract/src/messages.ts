// Every message the user can be shown that the specification or the contract fixes, in one place.
// The web app translates by these exact English strings' keys; the server sends the English text.
// A number a message states comes from limits, and reaches its translations as an interpolation value.
// A number known only when it is sent (a wait) is a {{placeholder}}: the server sends the message
// filled in (fillMessage), and the web app finds the template back by its shape.
import { limits } from './limits';

/** The numbers the messages state, as the translations' interpolation values ({{otpLength}}, …). */
export const messageValues = {
  otpLength: limits.otpLength,
  passwordMinLength: limits.passwordMinLength,
  passwordMaxLength: limits.passwordMaxLength,
  nameMaxLength: limits.nameMaxLength,
} as const;

export const messages = {
  noAccessToken: 'No access token found',
  noRefreshToken: 'No refresh token found',
  notFound: 'Not found',
  validationFailed: 'Some fields are not valid',
  unexpected: 'Something went wrong on our side. Please try again.',
  unauthorized: 'Your session has expired. Please log in again.',
  forbidden: 'You are not allowed to do that',
  rateLimited: 'Too many attempts. Please wait and try again.',
  tooManyFailuresSeconds: 'Too many failed attempts. Try again in {{seconds}} s.',
  tooManyFailuresMinutes: 'Too many failed attempts. Try again in {{minutes}} min.',
  payloadTooLarge: 'The upload is larger than allowed',
  emailNotVerified: 'Email not verified',
  invalidCredentials: 'Invalid email or password',
  registered: `Account created. We sent a ${limits.otpLength}-digit code to your email.`,
  codeSent: 'If an account exists for this email, we sent it a code.',
  codeInvalid: 'The code is wrong or has expired',
  codeBurned: 'Too many wrong attempts. Request a new code.',
  emailVerified: 'Email verified. You can log in now.',
  codeValid: 'The code is valid',
  emailTaken: 'An account with this email already exists',
  loggedOut: 'Logged out',
  passwordReset: 'Your password has been changed. Log in with your new password.',
  passwordChanged: 'Your password has been changed',
  wrongPassword: 'The current password is not correct',
  profileUpdated: 'Profile updated',
  userCreated: 'User created',
  paymentVerified: 'Payment verified successfully!',
  paymentVerificationFailed: 'Payment verification failed',
  createOrderUndefined: 'Create order endpoint is undefined',
  recordingUploaded: 'Recording uploaded successfully',
  recordingUploadFailed: 'Failed to upload recording',
  failedToFetchCourses: 'Failed to fetch courses',
  failedToFetchMyCourses: 'Failed to fetch my courses',
  failedToFetchSessions: 'Failed to fetch sessions',
  failedToEnroll: 'Failed to enroll',
  failedToFetchRecordedVideos: 'Failed to fetch recorded videos',
  alreadyEnrolled: 'You are already enrolled in this course',
  courseNotFound: 'Course not found',
  courseCreated: 'Course created',
  courseUpdated: 'Course updated',
  sessionScheduled: 'Session scheduled',
  paymentProviderUnavailable: 'The payment provider is not reachable. Please try again.',
  invalidWebhookSignature: 'Invalid webhook signature',
  somethingWentWrong: 'Something went wrong!',
  roomNotFound: 'Room not found',
  roomFull: 'Room is full',
  notAllowed: 'Not allowed',
  connectionFailed: 'Connection failed',
  webrtcUnsupported: 'Your browser does not support WebRTC or it is disabled.',
  audioAlreadyActive: 'Audio already active',
  videoAlreadyActive: 'Video already active',
  screenAlreadyActive: 'Screen capture already active',
  cannotStartMedia: 'Cannot start media feed.',
  cannotStartScreen: 'Cannot start screen capture.',
  peerConnectionError: 'Peer connection error',
  chatSendFailed: 'Message could not be sent, try again',
  relayTooLarge: 'The message is too large to relay',
  sessionNotOpenYet: 'This session is not open yet',
  sessionEnded: 'This session has ended',
  bodyTooDeep: 'The request body is nested too deeply',
  serviceUnavailable: 'The service is briefly unavailable. Please try again in a moment.',
} as const;

export type MessageKey = keyof typeof messages;

/** A message with its {{name}} placeholders filled in, as the server sends it. */
export function fillMessage(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => (name in values ? String(values[name]) : placeholder));
}

/** Field validation messages: the server sends them in `errors`, the web app translates them by key. */
export const validationMessages = {
  required: 'Required',
  email: 'Enter a valid email address',
  passwordTooShort: `Use at least ${limits.passwordMinLength} characters`,
  passwordTooLong: `Use at most ${limits.passwordMaxLength} characters`,
  passwordDigitsOnly: 'Use letters or symbols too, not only digits',
  nameTooLong: `Use at most ${limits.nameMaxLength} characters`,
  phone: 'Enter a valid phone number',
  otp: `Enter the ${limits.otpLength}-digit code`,
  passwordsDiffer: 'The passwords do not match',
  passwordUnchanged: 'Choose a password different from the current one',
  controlCharacters: 'Remove invisible control characters',
  recordId: 'Not a valid id',
} as const;
