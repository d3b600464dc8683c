/** Saves text the page built as a file, the way the browser saves any download. */
export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: the browser has the Blob by then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
