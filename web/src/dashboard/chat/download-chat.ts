import { chatContract } from '@locus/contract';
import { useEffect, useState } from 'react';
import { sessionStore } from '../../app/session';

/** SPEC.md §2: Download Chat is offered only on screens wider than this. */
export const DOWNLOAD_CHAT_MIN_WIDTH = 960;

/** Whether the window is wider than 960 px now, following every resize. */
export function useWiderThanDownloadThreshold(): boolean {
  const wider = () => window.innerWidth > DOWNLOAD_CHAT_MIN_WIDTH;
  const [value, setValue] = useState(wider);
  useEffect(() => {
    const onResize = () => setValue(wider());
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return value;
}

/**
 * Saves the session's chat transcript (both languages, as the server writes it). A plain link
 * cannot carry the bearer token, so the file is fetched with it and saved from a Blob.
 */
export async function downloadChat(sessionId: string): Promise<void> {
  const { token } = sessionStore.get();
  const path = chatContract.chatTranscript.path.replace(':uuid', encodeURIComponent(sessionId));
  const response = await fetch(path, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `The download failed (${response.status}).`);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `locus-chat-${sessionId}.txt`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: the browser has the Blob by then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
