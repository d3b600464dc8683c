import { callerTexts, chatLimits, chatQuickReplies, type ChatQuickReply } from '@locus/contract';
import {
  Badge,
  Box,
  Button,
  CloseButton,
  Group,
  Paper,
  Text,
  Textarea,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { formatClock } from '../format';
import { shownMessage, type OutgoingChatMessage, type StoredChatMessage } from './chat-state';
import type { DispatcherChat } from './useDispatcherChat';

/** The counter shows from here on: near the limit, not while typing a short message. */
const COUNTER_FROM = chatLimits.maxChars - 200;
const STICK_TO_BOTTOM_PX = 24;

/** "Chat with caller", with how many caller messages came while the panel was closed. */
export function ChatOpenButton({ chat }: { chat: DispatcherChat }) {
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(chat.open);
  // Closing the panel hands focus back to the button that opened it.
  useEffect(() => {
    if (wasOpen.current && !chat.open) button.current?.focus();
    wasOpen.current = chat.open;
  }, [chat.open]);
  if (!chat.available || chat.open) return null;
  return (
    <Button
      ref={button}
      variant="light"
      leftSection={<IconMessages size={18} aria-hidden />}
      onClick={chat.openChat}
      rightSection={
        chat.unreadTotal > 0 ? (
          <Badge color="signal" size="sm" data-testid="chat-unread">
            {chat.unreadTotal} new
          </Badge>
        ) : undefined
      }
    >
      Chat with caller
    </Button>
  );
}

function MessageBubble({ message, colour }: { message: StoredChatMessage; colour: string }) {
  const [alternate, setAlternate] = useState(false);
  const shown = shownMessage(message);
  const mine = message.from === 'dispatcher';
  const showsAlternate = alternate && shown.alternate !== null;
  const text = showsAlternate ? shown.alternate : shown.primary;
  // The original is in the sender's language; the other version in the translation's.
  const showsOriginal = mine ? !showsAlternate : showsAlternate || shown.alternate === null;
  const lang = showsOriginal ? message.language : message.translation?.language;
  return (
    <Box
      component="li"
      data-testid="chat-message"
      data-from={message.from}
      style={{
        alignSelf: mine ? 'flex-end' : 'flex-start',
        maxWidth: '85%',
        borderLeft: mine ? undefined : `4px solid ${colour}`,
      }}
      bg={mine ? 'var(--mantine-color-blue-light)' : 'var(--mantine-color-default-hover)'}
      px="xs"
      py={4}
    >
      <Text size="xs" c="dimmed">
        {mine ? 'You' : 'Caller'} ·{' '}
        <time dateTime={message.sentAt}>{formatClock(Date.parse(message.sentAt))}</time>
        {showsAlternate && (mine ? ' · as the caller reads it' : ' · original')}
      </Text>
      {/* Plain text, never HTML: React escapes it, and line breaks are kept. */}
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} lang={lang}>
        {text}
      </Text>
      <Group gap={8}>
        {shown.note && (
          <Text size="xs" fs="italic" c="dimmed">
            {shown.note}
          </Text>
        )}
        {shown.alternate !== null && (
          <UnstyledButton
            fz="xs"
            c="blue"
            td="underline"
            aria-pressed={alternate}
            onClick={() => setAlternate((value) => !value)}
          >
            {alternate ? shown.primaryLabel : shown.alternateLabel}
          </UnstyledButton>
        )}
      </Group>
    </Box>
  );
}

function PendingBubble({ message }: { message: OutgoingChatMessage }) {
  return (
    <Box
      component="li"
      data-testid="chat-outgoing"
      style={{ alignSelf: 'flex-end', maxWidth: '85%' }}
      bg="var(--mantine-color-blue-light)"
      px="xs"
      py={4}
    >
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {message.text}
      </Text>
      <Text size="xs" fs="italic" c={message.status === 'refused' ? 'red' : 'dimmed'}>
        {message.status === 'refused' ? `Not sent: ${message.reason ?? ''}` : 'sending…'}
      </Text>
    </Box>
  );
}

function CallerPicker({ chat, colours, numberOf }: ChatPanelProps) {
  if (chat.callers.length < 2) return null;
  return (
    <Group gap={4} role="group" aria-label="Chat with which caller">
      {chat.callers.map((callerId) => {
        const unread = chat.state.unread[callerId] ?? 0;
        const selected = callerId === chat.shownCaller;
        return (
          <Button
            key={callerId}
            size="compact-xs"
            variant={selected ? 'filled' : 'default'}
            aria-pressed={selected}
            onClick={() => chat.selectCaller(callerId)}
            leftSection={
              <Box
                aria-hidden
                w={10}
                h={10}
                style={{ borderRadius: '50%', background: colours[callerId] ?? 'gray' }}
              />
            }
            rightSection={unread > 0 ? <Badge size="xs">{unread} new</Badge> : undefined}
          >
            {numberOf(callerId) || 'Caller'}
          </Button>
        );
      })}
    </Group>
  );
}

function Composer({ chat, callerId }: { chat: DispatcherChat; callerId: string }) {
  const [text, setText] = useState('');
  const counterId = useId();
  const trimmed = text.trim();
  const tooLong = trimmed.length > chatLimits.maxChars;
  const send = () => {
    if (trimmed.length === 0 || tooLong) return;
    chat.send(callerId, { text: trimmed });
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter is a new line (and an input method composing text keeps Enter).
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  const quick = (quickReply: ChatQuickReply) => chat.send(callerId, { quickReply });
  return (
    <>
      <Group gap={4} role="group" aria-label="Quick replies">
        {chatQuickReplies.map((quickReply) => (
          <Button
            key={quickReply}
            size="compact-xs"
            variant="default"
            onClick={() => quick(quickReply)}
          >
            {callerTexts.en.quickReplies[quickReply]}
          </Button>
        ))}
      </Group>
      <Textarea
        label="Message to the caller"
        placeholder="Type a message, Enter to send"
        autosize
        minRows={1}
        maxRows={4}
        maxLength={chatLimits.maxChars}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        aria-describedby={text.length >= COUNTER_FROM ? counterId : undefined}
      />
      <Group justify="space-between" gap="xs">
        <Text size="xs" c={tooLong ? 'red' : 'dimmed'} id={counterId} aria-live="polite">
          {text.length >= COUNTER_FROM
            ? `${text.length.toLocaleString('en')} / ${chatLimits.maxChars.toLocaleString('en')} characters`
            : ''}
        </Text>
        <Button size="xs" onClick={send} disabled={trimmed.length === 0 || tooLong}>
          Send
        </Button>
      </Group>
    </>
  );
}

interface ChatPanelProps {
  chat: DispatcherChat;
  colours: Record<string, string>;
  numberOf: (callerId: string) => string;
}

/**
 * The chat with the caller (issue 12): the conversation with one caller at a time, in the
 * dispatcher's language (English) with each message's other language one tap away, quick
 * replies, and the message box.
 */
export function ChatPanel(props: ChatPanelProps) {
  const { chat, colours } = props;
  const headingId = useId();
  const logId = useId();
  const viewport = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const closeRef = useRef<HTMLButtonElement>(null);
  const callerId = chat.shownCaller;
  const messages = chat.state.messages.filter((message) => message.callerId === callerId);
  const outgoing = chat.state.outgoing.filter((message) => message.callerId === callerId);

  useEffect(() => {
    if (chat.open) closeRef.current?.focus();
  }, [chat.open]);

  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const onScroll = () => {
      stuck.current =
        element.scrollHeight - element.scrollTop - element.clientHeight <= STICK_TO_BOTTOM_PX;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [chat.open]);

  useLayoutEffect(() => {
    const element = viewport.current;
    if (element && stuck.current) element.scrollTop = element.scrollHeight;
  }, [messages.length, outgoing.length, callerId]);

  if (!chat.available || !chat.open) return null;
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      p="sm"
      style={{ display: 'flex', flexDirection: 'column', gap: 8, flex: '0 0 auto' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Title order={2} size="h5" id={headingId}>
          Chat with caller
        </Title>
        <CloseButton ref={closeRef} aria-label="Close chat" onClick={chat.closeChat} />
      </Group>
      <CallerPicker {...props} />
      {chat.openError && (
        <Text size="sm" c="red" role="alert">
          The chat could not be opened: {chat.openError}
        </Text>
      )}
      {/* A log, but not read out by itself: the dashboard's announcer says each new caller
          message once, at its own pace. It scrolls, so it takes focus (WCAG 2.1.1). */}
      <Box
        ref={viewport}
        id={logId}
        role="log"
        aria-live="off"
        aria-label="Messages"
        tabIndex={0}
        style={{ overflowY: 'auto', maxHeight: 260, minHeight: 60 }}
      >
        {messages.length === 0 && outgoing.length === 0 ? (
          <Text size="sm" c="dimmed">
            {chat.chatInitiated
              ? "No messages yet. The caller's page shows the chat."
              : chat.opening
                ? 'Opening the chat…'
                : 'The chat is not open yet.'}
          </Text>
        ) : (
          <Box
            component="ol"
            m={0}
            p={0}
            style={{ listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 6 }}
          >
            {messages.map((message) => (
              <MessageBubble
                key={message.messageId}
                message={message}
                colour={colours[message.callerId] ?? 'gray'}
              />
            ))}
            {outgoing.map((message) => (
              <PendingBubble key={message.clientId} message={message} />
            ))}
          </Box>
        )}
      </Box>
      {chat.chatInitiated && callerId && <Composer chat={chat} callerId={callerId} />}
    </Paper>
  );
}
