import { afterEach, describe, expect, it } from 'vitest';
import { storageKeys } from '@mooz/contract/config';
import { messages } from '@mooz/contract/messages';
import { decodeChat, encodeChat, truncateForNotification } from './chat';
import { inviteLink, meetingPeerId, roomIdFromInput, savedUserName } from './identity';
import { chatsInView, initialMeetingState, useMeetingStore } from './meeting-store';
import { sendChatTo } from './services/chat-channel';
import { connectErrorMessage } from './services/handshake';
import { sendChat } from './services/meeting';

afterEach(() => {
  sessionStorage.clear();
  useMeetingStore.setState({ ...initialMeetingState(), userName: '', peerId: '' });
});

describe('chat notifications', () => {
  it('cuts the text at 45 characters with an ellipsis', () => {
    const text = 'Hello everyone, can you all see my camera clearly from where you are?';
    expect(truncateForNotification(text)).toBe(`${text.slice(0, 45)}...`);
    expect(truncateForNotification('x'.repeat(45))).toBe('x'.repeat(45));
  });

  it('counts characters, not UTF-16 units, so an emoji is never cut in half', () => {
    const text = '😀'.repeat(46);
    expect(truncateForNotification(text)).toBe(`${'😀'.repeat(45)}...`);
  });

  it('reads only well-formed {chat} messages from the data channel', () => {
    const wire = encodeChat({ id: '1', userLabel: 'Sam', text: 'hi' });
    expect(JSON.parse(wire)).toEqual({ chat: { id: '1', userLabel: 'Sam', text: 'hi' } });
    expect(decodeChat(wire)).toEqual({ id: '1', userLabel: 'Sam', text: 'hi' });
    expect(decodeChat('not json')).toBeNull();
    expect(decodeChat(JSON.stringify({ other: 1 }))).toBeNull();
    expect(decodeChat(JSON.stringify({ chat: { id: 1, text: 'x' } }))).toBeNull();
  });
});

describe('identity', () => {
  it('keeps one peer id per tab in session storage, generated when missing', () => {
    const first = meetingPeerId();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(sessionStorage.getItem(storageKeys.sessionId)).toBe(first);
    expect(meetingPeerId()).toBe(first);
  });

  it('prefers the saved user name, else the account name', () => {
    expect(savedUserName({ first_name: 'Ada', last_name: 'Lovelace' })).toBe('Ada Lovelace');
    localStorage.setItem(storageKeys.userName, 'Countess');
    expect(savedUserName({ first_name: 'Ada', last_name: 'Lovelace' })).toBe('Countess');
  });

  it('finds the room id in a bare id, an invite link or a path, and nothing else', () => {
    const id = '3f2c9a4e-1b2c-4d5e-8f90-123456789abc';
    expect(roomIdFromInput(` ${id} `)).toBe(id);
    expect(roomIdFromInput(inviteLink(id, 'https://mooz.example'))).toBe(id);
    expect(roomIdFromInput(`https://mooz.example/meeting/${id}?x=1#y`)).toBe(id);
    expect(roomIdFromInput(`/meeting/${id}`)).toBe(id);
    expect(roomIdFromInput('https://mooz.example/courses/1')).toBeNull();
    expect(roomIdFromInput('two words')).toBeNull();
    expect(roomIdFromInput('')).toBeNull();
  });
});

describe('connect_error messages', () => {
  it('shows the JSON message, else the raw one, else Connection failed', () => {
    expect(connectErrorMessage(new Error(JSON.stringify({ message: 'Room is full' })))).toBe('Room is full');
    expect(connectErrorMessage(new Error('websocket error'))).toBe('websocket error');
    expect(connectErrorMessage(new Error(''))).toBe(messages.connectionFailed);
    expect(connectErrorMessage(undefined)).toBe(messages.connectionFailed);
  });
});

describe('chat sending', () => {
  it('keeps a message every connected peer accepted, as one of mine', () => {
    const sent: string[] = [];
    useMeetingStore.setState({ userName: 'Tess' });
    expect(sendChatTo([{ send: (text) => sent.push(text) > 0 }], '  hello  ')).toBe(true);
    expect(useMeetingStore.getState().messages).toMatchObject([{ userLabel: 'Tess', text: 'hello', mine: true }]);
    expect(JSON.parse(sent[0]!)).toMatchObject({ chat: { userLabel: 'Tess', text: 'hello' } });
  });

  it('takes a message back out when it could not be sent', () => {
    useMeetingStore.setState({ userName: 'Tess' });
    expect(sendChatTo([{ send: () => true }, { send: () => false }], 'hello')).toBe(false);
    expect(useMeetingStore.getState().messages).toEqual([]);
  });

  it('takes a message back out when nobody is connected, as outside a meeting', () => {
    useMeetingStore.setState({ userName: 'Tess' });
    expect(sendChat('hello')).toBe(false);
    expect(useMeetingStore.getState().messages).toEqual([]);
  });

  it('announces chats only when neither the chats tab nor the floating chat is open', () => {
    expect(chatsInView({ panelOpen: false, panelTab: 'chats', floatingChatOpen: false })).toBe(false);
    expect(chatsInView({ panelOpen: true, panelTab: 'people', floatingChatOpen: false })).toBe(false);
    expect(chatsInView({ panelOpen: true, panelTab: 'chats', floatingChatOpen: false })).toBe(true);
    expect(chatsInView({ panelOpen: false, panelTab: 'people', floatingChatOpen: true })).toBe(true);
  });
});
