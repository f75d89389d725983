// The API's endpoints: class sessions, the calendar of them, and what a meeting room needs. Assembled
// with the others in ../endpoints.ts.
import { z } from 'zod';
import { apiRoutes } from '../api-routes';
import { calendarFeed, calendarTokenParams } from '../calendar';
import { courseIdParams, session, sessionInput } from '../courses';
import { endpoint } from '../endpoint';
import { dataEnvelope } from '../envelope';
import { iceServersAnswer, meetingCapacity } from '../realtime';
import { roomIdParams } from '../recordings';
import { cancelledSession, cancelSessionBody, sessionAttendance, sessionIdParams, sessionPatch } from '../teaching';
import {
  savedWhiteboardPage,
  sessionWhiteboard,
  whiteboardImageBody,
  whiteboardLimits,
  whiteboardPageParams,
  whiteboardRoomParams,
} from '../whiteboard';
import { done } from './answers';

export const sessionsEndpoints = {
  list: endpoint({
    ...apiRoutes.sessions.list,
    summary: "The caller's sessions: bought courses (all while in trial), a teacher's own, all for admins",
    tags: ['classes'],
    access: ['read', 'Session'],
    status: 200,
    response: dataEnvelope(z.array(session)),
  }),
  schedule: endpoint({
    ...apiRoutes.sessions.schedule,
    summary: 'Schedule a session in a course one teaches',
    tags: ['classes'],
    access: ['create', 'Session'],
    body: sessionInput,
    status: 201,
    response: dataEnvelope(session),
    failures: [404],
  }),
  update: endpoint({
    ...apiRoutes.sessions.update,
    summary: "Change a session's title, start or duration while it has not ended; its students are mailed a move",
    tags: ['classes'],
    // The rule's condition (a session of a course they teach) is checked against the row in the service.
    access: ['update', 'Session'],
    params: sessionIdParams,
    body: sessionPatch,
    status: 200,
    response: dataEnvelope(session),
    failures: [404, 409],
  }),
  cancel: endpoint({
    ...apiRoutes.sessions.cancel,
    summary: 'Cancel a session with a reason: it leaves every list, its room refuses joins, its students are mailed once',
    tags: ['classes'],
    access: ['update', 'Session'],
    params: sessionIdParams,
    body: cancelSessionBody,
    status: 200,
    response: dataEnvelope(cancelledSession),
    failures: [404, 409],
  }),
  attendance: endpoint({
    ...apiRoutes.sessions.attendance,
    summary: 'Who attends or attended a session, live while it runs (each stint, minutes present, who is here) and which of its students have not come (its teacher, admins)',
    tags: ['classes'],
    access: ['update', 'Session'],
    params: sessionIdParams,
    status: 200,
    response: dataEnvelope(sessionAttendance),
    // 409: a cancelled session.
    failures: [404, 409],
  }),
  attendanceCsv: endpoint({
    ...apiRoutes.sessions.attendanceCsv,
    summary: 'The same attendance as a CSV file (text/csv, an attachment): name, email, joined, left, minutes present, status',
    tags: ['classes'],
    access: ['update', 'Session'],
    params: sessionIdParams,
    status: 200,
    response: z.string().meta({ description: 'text/csv' }),
    failures: [404, 409],
  }),
  roomAttendance: endpoint({
    ...apiRoutes.sessions.roomAttendance,
    summary: "The live attendance of the class session held in a meeting room, for its People tab (404 for an ad hoc room)",
    tags: ['classes'],
    access: ['update', 'Session'],
    params: roomIdParams,
    status: 200,
    response: dataEnvelope(sessionAttendance),
    failures: [404, 409],
  }),
  whiteboardPages: endpoint({
    ...apiRoutes.sessions.whiteboardPages,
    summary: "The class whiteboard's pages saved as images, for those who may see the session",
    tags: ['classes'],
    access: ['read', 'Session'],
    params: whiteboardRoomParams,
    status: 200,
    response: dataEnvelope(z.array(savedWhiteboardPage)),
    failures: [404],
  }),
  whiteboardImage: endpoint({
    ...apiRoutes.sessions.whiteboardImage,
    summary: 'One saved page of the class whiteboard (image/png, an attachment)',
    tags: ['classes'],
    access: ['read', 'Session'],
    params: whiteboardPageParams,
    status: 200,
    response: z.string().meta({ description: 'image/png' }),
    failures: [404],
  }),
  saveWhiteboardImage: endpoint({
    ...apiRoutes.sessions.saveWhiteboardImage,
    summary: "Saves a page of the class whiteboard as PNG (the session's teacher or an admin, while the session is on)",
    tags: ['classes'],
    access: ['read', 'Session'],
    params: whiteboardPageParams,
    body: whiteboardImageBody,
    bodyLimit: Math.ceil((whiteboardLimits.snapshotMaxBytes * 4) / 3) + 1024,
    status: 200,
    response: dataEnvelope(savedWhiteboardPage),
    failures: [400, 403, 404, 413],
  }),
  courseWhiteboards: endpoint({
    ...apiRoutes.sessions.courseWhiteboards,
    summary:
      "The saved whiteboard pages of a course's sessions, newest session first: only sessions with a saved page, only those the caller may see (as the sessions list); 403 for a course of the catalogue the caller is not in",
    tags: ['classes'],
    access: ['read', 'Session'],
    params: courseIdParams,
    status: 200,
    response: dataEnvelope(z.array(sessionWhiteboard)),
    failures: [403, 404],
  }),
  pollAnswersCsv: endpoint({
    ...apiRoutes.sessions.pollAnswersCsv,
    summary:
      "Every answer to a meeting room's polls as a CSV file (text/csv, an attachment): poll, question, name and email (blank when anonymous), answer, right or wrong for a graded poll, when (whoever opened the polls, admins)",
    tags: ['classes'],
    access: ['join', 'Meeting'],
    params: whiteboardRoomParams,
    status: 200,
    response: z.string().meta({ description: 'text/csv' }),
    failures: [404],
  }),
  ics: endpoint({
    ...apiRoutes.sessions.ics,
    summary: 'One session the caller may see as an iCalendar file (text/calendar, an attachment): "Add to calendar"',
    tags: ['classes'],
    access: ['read', 'Session'],
    params: sessionIdParams,
    status: 200,
    response: z.string().meta({ description: 'text/calendar' }),
    failures: [404],
  }),
} as const;

export const calendarEndpoints = {
  feed: endpoint({
    ...apiRoutes.calendar.feed,
    summary: "The caller's private calendar feed address, or null when they have none",
    tags: ['calendar'],
    access: 'signedIn',
    status: 200,
    response: dataEnvelope(calendarFeed.nullable()),
  }),
  createFeed: endpoint({
    ...apiRoutes.calendar.createFeed,
    summary: 'Make a new feed address; the previous one, if any, stops working',
    tags: ['calendar'],
    access: 'signedIn',
    status: 201,
    response: dataEnvelope(calendarFeed),
  }),
  revokeFeed: endpoint({
    ...apiRoutes.calendar.revokeFeed,
    summary: "Turn the caller's feed off: its address answers 404 from now on",
    tags: ['calendar'],
    access: 'signedIn',
    status: 200,
    response: done,
  }),
  ics: endpoint({
    ...apiRoutes.calendar.ics,
    summary: "A user's sessions as an iCalendar feed (text/calendar), public by the secret token in its address",
    tags: ['calendar'],
    access: 'public',
    params: calendarTokenParams,
    status: 200,
    response: z.string().meta({ description: 'text/calendar' }),
    failures: [404],
  }),
} as const;

export const meetingsEndpoints = {
  iceServers: endpoint({
    ...apiRoutes.meetings.iceServers,
    summary: 'STUN and TURN servers for meeting peers, with TURN credentials of the caller',
    tags: ['meetings'],
    access: 'signedIn',
    status: 200,
    response: iceServersAnswer,
  }),
  capacity: endpoint({
    ...apiRoutes.meetings.capacity,
    summary: 'How many people a meeting room or class session may hold here (with or without the SFU)',
    tags: ['meetings'],
    access: 'signedIn',
    status: 200,
    response: z.object({ data: meetingCapacity }),
  }),
} as const;
