/** @jsxImportSource preact */
import type { CallerPageTexts } from '@locus/contract/caller';
import { useState } from 'preact/hooks';
import { CHAT_MAX_CHARS, type ChatEntry, type ChatState } from './caller-chat';
import { pageLanguageTags } from './page-language';

/**
 * The chat with the dispatcher (issue 12), below the sharing controls once the dispatcher opened
 * it, whether or not the caller shares. The dispatcher's messages show in the caller's language
 * (the translation, the original one tap away); one no engine could translate shows the original,
 * marked so. Every text is rendered as text, never as HTML.
 */
export function ChatPanel({
  t,
  chat,
  onSend,
}: {
  t: CallerPageTexts;
  chat: ChatState;
  onSend: (text: string) => boolean;
}) {
  const [draft, setDraft] = useState('');
  if (!chat.opened) return null;
  const submit = (event: Event) => {
    event.preventDefault();
    if (onSend(draft)) setDraft('');
  };
  return (
    <section class="card chat" aria-labelledby="chat-title">
      <h2 id="chat-title">{t.chatTitle}</h2>
      <p class="quiet">{t.chatIntro}</p>
      <div class="chat-log" role="log" aria-live="polite" aria-label={t.chatLogLabel}>
        {chat.entries.length === 0 ? (
          <p class="quiet">{t.chatEmpty}</p>
        ) : (
          <ol>
            {chat.entries.map((entry) => (
              <ChatLine key={entry.key} t={t} entry={entry} />
            ))}
          </ol>
        )}
      </div>
      <form class="chat-form" onSubmit={submit}>
        <label for="chat-input">{t.chatInputLabel}</label>
        <textarea
          id="chat-input"
          rows={2}
          maxLength={CHAT_MAX_CHARS}
          value={draft}
          onInput={(event) => setDraft((event.target as HTMLTextAreaElement).value)}
          onKeyDown={(event) => {
            // Enter sends, Shift+Enter starts a new line (as in messaging apps).
            if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) submit(event);
          }}
        />
        <button type="submit" class="btn" disabled={draft.trim().length === 0}>
          <span>{t.chatSendButton}</span>
        </button>
      </form>
    </section>
  );
}

function ChatLine({ t, entry }: { t: CallerPageTexts; entry: ChatEntry }) {
  if (entry.kind === 'outgoing') {
    return (
      <li class={`chat-line mine${entry.delivery === 'refused' ? ' refused' : ''}`}>
        <span class="chat-who">{t.chatFromYou}</span>
        <p class="chat-text">{entry.text}</p>
        {entry.delivery === 'sending' && <span class="chat-note">{t.chatSending}</span>}
        {entry.delivery === 'refused' && (
          <span class="chat-note" role="alert">
            {entry.reason ? `${t.chatNotSent}: ${entry.reason}` : t.chatNotSent}
          </span>
        )}
      </li>
    );
  }
  const { message } = entry;
  if (message.from === 'caller') {
    return (
      <li class="chat-line mine">
        <span class="chat-who">{t.chatFromYou}</span>
        <p class="chat-text">{message.text}</p>
      </li>
    );
  }
  return <DispatcherLine t={t} message={message} />;
}

function DispatcherLine({
  t,
  message,
}: {
  t: CallerPageTexts;
  message: Extract<ChatEntry, { kind: 'message' }>['message'];
}) {
  const [showOriginal, setShowOriginal] = useState(false);
  const translated =
    message.translation !== null &&
    (message.translationStatus === 'translated' || message.translationStatus === 'catalogue');
  const who = message.senderName ?? t.chatFromDispatcher;
  return (
    <li class="chat-line theirs">
      <span class="chat-who">{who}</span>
      {translated ? (
        <>
          <p
            class="chat-text"
            lang={message.translation ? pageLanguageTags[message.translation.language] : undefined}
          >
            {message.translation?.text}
          </p>
          {showOriginal && (
            <p class="chat-original" lang={pageLanguageTags[message.language]}>
              <span class="chat-note">{t.chatOriginalLabel}: </span>
              {message.text}
            </p>
          )}
          <button
            type="button"
            class="chat-toggle"
            aria-expanded={showOriginal}
            onClick={() => setShowOriginal((shown) => !shown)}
          >
            {showOriginal ? t.chatShowTranslation : t.chatShowOriginal}
          </button>
        </>
      ) : (
        <>
          <p class="chat-text" lang={pageLanguageTags[message.language]}>
            {message.text}
          </p>
          {message.translationStatus === 'pending' && (
            <span class="chat-note">{t.chatTranslating}</span>
          )}
          {message.translationStatus === 'not-translated' && (
            <span class="chat-note">{t.chatNotTranslated}</span>
          )}
        </>
      )}
    </li>
  );
}
