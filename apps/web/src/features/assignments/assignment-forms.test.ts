import { describe, expect, it } from 'vitest';
import { assignmentLimits } from '@mooz/contract/assignments';
import {
  answerProblem,
  assignmentBody,
  assignmentChanges,
  assignmentProblems,
  fileProblem,
  reviewBodyOf,
  reviewProblems,
  reviewValuesOf,
} from './assignment-forms';

const now = Date.parse('2026-11-25T12:00:00Z');
const values = { title: '  Essay on closures ', instructions: 'Two pages.', due: '2026-11-30T18:00' };

describe('the assignment editor', () => {
  it('sends a trimmed title and the due date as an instant of the teacher’s zone', () => {
    expect(assignmentBody(values, 'Asia/Kolkata')).toEqual({
      title: 'Essay on closures',
      instructions: 'Two pages.',
      due_at: '2026-11-30T12:30:00.000Z',
    });
    expect(assignmentBody({ ...values, due: '' }, 'UTC').due_at).toBeNull();
  });

  it('accepts a good assignment, with or without a due date', () => {
    expect(assignmentProblems(values, { zone: 'UTC', now })).toEqual({});
    expect(assignmentProblems({ ...values, due: '' }, { zone: 'UTC', now })).toEqual({});
  });

  it('wants a title, of at most the contract’s length', () => {
    expect(assignmentProblems({ ...values, title: '   ' }, { zone: 'UTC', now })).toEqual({ title: 'titleRequired' });
    expect(
      assignmentProblems({ ...values, title: 'x'.repeat(assignmentLimits.titleMaxLength + 1) }, { zone: 'UTC', now }),
    ).toEqual({ title: 'titleTooLong' });
    expect(
      assignmentProblems({ ...values, title: 'x'.repeat(assignmentLimits.titleMaxLength) }, { zone: 'UTC', now }),
    ).toEqual({});
  });

  it('refuses instructions over the limit', () => {
    expect(
      assignmentProblems(
        { ...values, instructions: 'x'.repeat(assignmentLimits.instructionsMaxLength + 1) },
        { zone: 'UTC', now },
      ),
    ).toEqual({
      instructions: 'instructionsTooLong',
    });
  });

  it('refuses a due date that is not one, or a new one already past', () => {
    expect(assignmentProblems({ ...values, due: '2026-13-01T10:00' }, { zone: 'UTC', now })).toEqual({
      due: 'dueInvalid',
    });
    expect(assignmentProblems({ ...values, due: '2026-11-25T11:59' }, { zone: 'UTC', now })).toEqual({
      due: 'duePast',
    });
    // 12:30 in Kolkata is 07:00 UTC: already past at noon UTC.
    expect(assignmentProblems({ ...values, due: '2026-11-25T12:30' }, { zone: 'Asia/Kolkata', now })).toEqual({
      due: 'duePast',
    });
    expect(assignmentProblems({ ...values, due: '2026-11-25T12:30' }, { zone: 'UTC', now })).toEqual({});
  });

  it('lets an old assignment keep the past due date it had', () => {
    expect(
      assignmentProblems(
        { ...values, due: '2026-11-01T10:00' },
        { zone: 'UTC', now, unchangedDue: '2026-11-01T10:00' },
      ),
    ).toEqual({});
  });

  it('patches only what changed, and can clear the due date', () => {
    expect(assignmentChanges(values, { ...values, title: 'Essay on scopes' }, 'UTC')).toEqual({
      title: 'Essay on scopes',
    });
    expect(assignmentChanges(values, { ...values, due: '' }, 'UTC')).toEqual({ due_at: null });
    expect(assignmentChanges(values, values, 'UTC')).toEqual({});
  });
});

describe('files', () => {
  it('refuses an empty file and one over the contract’s limit', () => {
    expect(fileProblem(null)).toBeNull();
    expect(fileProblem({ size: 0 })).toBe('fileEmpty');
    expect(fileProblem({ size: assignmentLimits.fileMaxBytes })).toBeNull();
    expect(fileProblem({ size: assignmentLimits.fileMaxBytes + 1 })).toBe('fileTooLarge');
  });
});

describe('the student’s answer', () => {
  it('needs a text or a file', () => {
    expect(answerProblem('', null)).toBe('answerEmpty');
    expect(answerProblem('   \n ', null)).toBe('answerEmpty');
    expect(answerProblem('My answer', null)).toBeNull();
    expect(answerProblem('', { size: 10 })).toBeNull();
  });

  it('refuses a text over the limit and a file the server would refuse', () => {
    expect(answerProblem('x'.repeat(assignmentLimits.answerMaxLength + 1), null)).toBe('answerTooLong');
    expect(answerProblem('ok', { size: assignmentLimits.fileMaxBytes + 1 })).toBe('fileTooLarge');
    expect(answerProblem('', { size: 0 })).toBe('fileEmpty');
  });
});

describe('the review', () => {
  it('needs a grade or a pass/fail', () => {
    expect(reviewProblems({ grade: '', passed: 'none', feedback: 'Nice' })).toEqual({ grade: 'gradeOrPass' });
    expect(reviewProblems({ grade: 80, passed: 'none', feedback: '' })).toEqual({});
    expect(reviewProblems({ grade: '', passed: 'fail', feedback: '' })).toEqual({});
    expect(reviewProblems({ grade: 0, passed: 'pass', feedback: '' })).toEqual({});
  });

  it('keeps the grade between 0 and 100, whole', () => {
    expect(reviewProblems({ grade: 101, passed: 'none', feedback: '' })).toEqual({ grade: 'gradeRange' });
    expect(reviewProblems({ grade: -1, passed: 'pass', feedback: '' })).toEqual({ grade: 'gradeRange' });
    expect(reviewProblems({ grade: 72.5, passed: 'none', feedback: '' })).toEqual({ grade: 'gradeRange' });
    expect(reviewProblems({ grade: '7a', passed: 'none', feedback: '' })).toEqual({ grade: 'gradeRange' });
  });

  it('refuses feedback over the limit', () => {
    expect(
      reviewProblems({ grade: 50, passed: 'none', feedback: 'x'.repeat(assignmentLimits.feedbackMaxLength + 1) }),
    ).toEqual({ feedback: 'feedbackTooLong' });
  });

  it('sends the contract’s body and reads a saved review back', () => {
    expect(reviewBodyOf({ grade: 90, passed: 'pass', feedback: 'Well argued' })).toEqual({
      grade: 90,
      passed: true,
      feedback: 'Well argued',
    });
    expect(reviewBodyOf({ grade: '', passed: 'fail', feedback: '' })).toEqual({
      grade: null,
      passed: false,
      feedback: '',
    });
    expect(reviewValuesOf({ grade: null, passed: false, feedback: null })).toEqual({
      grade: '',
      passed: 'fail',
      feedback: '',
    });
    expect(reviewValuesOf({ grade: 75, passed: null, feedback: 'Good' })).toEqual({
      grade: 75,
      passed: 'none',
      feedback: 'Good',
    });
  });
});
