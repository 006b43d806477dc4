import { message as staticMessage, notification as staticNotification } from 'antd';
import type { ReactNode } from 'react';

/**
 * The feedback surfaces the API client uses (§8): notifications with a title for server errors and
 * refusals, short messages for warnings and transport failures. Inside the app they come from antd's
 * App context (so theme and locale apply); tests replace them with spies.
 */
export interface Notifier {
  notification: {
    error(args: { title: ReactNode; description?: ReactNode }): void;
    warning(args: { title: ReactNode; description?: ReactNode }): void;
  };
  message: {
    error(content: ReactNode): void;
    warning(content: ReactNode): void;
    success(content: ReactNode): void;
  };
}

const staticNotifier: Notifier = {
  notification: {
    error: (args) => staticNotification.error(args),
    warning: (args) => staticNotification.warning(args),
  },
  message: {
    error: (content) => void staticMessage.error(content),
    warning: (content) => void staticMessage.warning(content),
    success: (content) => void staticMessage.success(content),
  },
};

let current: Notifier = staticNotifier;

export function setNotifier(notifier: Notifier | null): void {
  current = notifier ?? staticNotifier;
}

export function notifier(): Notifier {
  return current;
}
