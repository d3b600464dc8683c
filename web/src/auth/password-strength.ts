import { ApiError } from '../app/api-error';

/** zxcvbn's score: 0 (guessed at once) to 4 (very unlikely to be guessed). */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

export interface PasswordStrength {
  score: StrengthScore;
  /** Why it is weak, or how to make it stronger; null when there is nothing to say. */
  reason: string | null;
}

export const strengthLabels: Record<StrengthScore, string> = {
  0: 'Very weak',
  1: 'Weak',
  2: 'Fair',
  3: 'Strong',
  4: 'Very strong',
};

type Checker = (password: string, userInputs: string[]) => PasswordStrength;

let checker: Promise<Checker> | undefined;

/**
 * zxcvbn-ts with its common-password dictionary (the list the server refuses) and English
 * feedback, fetched only when a form that chooses a password opens, never with the landing
 * page. The English word lists are left out: 600 kB more to download for a modest gain.
 */
export function loadStrengthChecker(): Promise<Checker> {
  checker ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en').then(({ translations }) => translations),
  ]).then(([{ ZxcvbnFactory }, common, translations]) => {
    const zxcvbn = new ZxcvbnFactory({
      dictionary: common.dictionary,
      graphs: common.adjacencyGraphs,
      translations,
    });
    return (password, userInputs) => {
      const { score, feedback } = zxcvbn.check(password, userInputs);
      return { score, reason: feedback.warning ?? feedback.suggestions[0] ?? null };
    };
  });
  // A failed download may succeed on the next keystroke.
  checker.catch(() => (checker = undefined));
  return checker;
}

/** The server's reason for refusing a field (e.g. a password too common), if it gave one. */
export function fieldIssue(error: unknown, path: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.body?.issues?.find((issue) => issue.path === path)?.message;
}
