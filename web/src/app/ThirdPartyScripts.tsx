import { useEffect } from 'react';
import { usePublicConfig } from '../public-site/public-config';
import { loadScript } from './scripts';

/**
 * What a chat assistant script exposes so Locus can hide it where a route asks (the map and
 * Overwatch, where it would cover controls). The deployment's widget snippet provides it.
 */
interface ChatAssistant {
  show(): void;
  hide(): void;
}

declare global {
  interface Window {
    chatAssistant?: ChatAssistant;
  }
}

/** SPEC.md §9: the chat widget is polled every 200 ms until it is ready. */
const chatPollMs = 200;

/**
 * The globally loaded third-party scripts of SPEC.md §1: the chat assistant and the support
 * widget, each only when configured. The captcha loads with the forms that need it.
 */
export function ThirdPartyScripts({ chatbotHidden }: { chatbotHidden: boolean }) {
  const config = usePublicConfig().data;
  const chatUrl = config?.chatAssistantScriptUrl ?? null;
  const supportUrl = config?.supportWidgetScriptUrl ?? null;

  useEffect(() => {
    if (supportUrl) loadScript(supportUrl).catch((error: unknown) => console.warn(error));
  }, [supportUrl]);

  useEffect(() => {
    if (chatUrl) loadScript(chatUrl).catch((error: unknown) => console.warn(error));
  }, [chatUrl]);

  useEffect(() => {
    // Styles or the widget itself can key off this too, even before the widget is ready.
    document.documentElement.dataset.chatAssistant = chatbotHidden ? 'hidden' : 'visible';
    if (!chatUrl) return;
    const apply = () => {
      const assistant = window.chatAssistant;
      if (!assistant) return false;
      if (chatbotHidden) assistant.hide();
      else assistant.show();
      return true;
    };
    if (apply()) return;
    const timer = window.setInterval(() => {
      if (apply()) window.clearInterval(timer);
    }, chatPollMs);
    return () => window.clearInterval(timer);
  }, [chatUrl, chatbotHidden]);

  return null;
}
