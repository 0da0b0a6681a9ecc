/**
 * An in-page confirmation: a modal `<dialog>` (Cancel has the focus, Escape cancels) instead of
 * `window.confirm`, which blocks the page, cannot say much, and some browsers suppress.
 */
import { byId, mount, type Child } from './dom';

/**
 * Shows the dialog `#id` (a `<form method="dialog">` whose confirming button has
 * `value="confirm"`) with `body` as its text; resolves true only when that button closed it
 * (Cancel, Escape and any other close resolve false).
 */
export function confirmInPage(id: string, ...body: Child[]): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>(id);
  const form = dialog.querySelector('form');
  if (!form) throw new Error(`index.html: dialog #${id} has no form`);
  mount(byId(`${id}-body`), ...body);
  dialog.showModal();
  // Settled on the click (submit) or Escape (cancel) itself, not on the later 'close' event:
  // what follows a confirmation starts in the same task as the click.
  return new Promise((resolve) => {
    const settle = (answer: boolean) => {
      form.removeEventListener('submit', onSubmit);
      dialog.removeEventListener('close', onClose);
      resolve(answer);
    };
    const onSubmit = (event: SubmitEvent) => settle((event.submitter as HTMLButtonElement | null)?.value === 'confirm');
    const onClose = () => settle(false);
    form.addEventListener('submit', onSubmit);
    dialog.addEventListener('close', onClose);
  });
}
