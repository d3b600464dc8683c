import { percentOf } from './format';
import { useChatTotals, type TeamRange } from './queries';
import { TotalsCard } from './TotalsCard';

/** Sessions with a chat and their messages by side (get-chat-totals). */
export function ChatCard({
  params,
  fileNameParts,
}: {
  params: TeamRange;
  fileNameParts: readonly string[];
}) {
  const query = useChatTotals(params);
  const chat = query.data?.chat;
  const ofMessages = (part: number) => `${percentOf(part, chat?.messages ?? 0)} of messages`;
  return (
    <TotalsCard
      title="Chat"
      description="Sessions in which the chat was opened, and the messages in them by side."
      status={query}
      empty={chat?.sessionsWithChat === 0}
      emptyText="No chats in this range."
      fileNameParts={fileNameParts}
      range={params}
      wide
      perRow={5}
      figures={
        chat && [
          { label: 'Sessions with chat', value: chat.sessionsWithChat },
          { label: 'Messages', value: chat.messages },
          { label: 'From callers', value: chat.fromCaller, note: ofMessages(chat.fromCaller) },
          {
            label: 'From dispatchers',
            value: chat.fromDispatcher,
            note: ofMessages(chat.fromDispatcher),
          },
          { label: 'Translated', value: chat.translated, note: ofMessages(chat.translated) },
        ]
      }
    />
  );
}
