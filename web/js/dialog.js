// In-page dialogs in place of the browser's confirm() and prompt() (issue 39): the page's own
// look and language, buttons large enough to tap, the same on every browser and phone, and no
// browser "prevent this page from creating dialogs" box that would silence the next one.
// A modal <dialog>: Escape or Cancel answers no.

import { t } from './i18n.js';

/**
 * Shows `message` with OK and Cancel (or `options.ok` / `options.cancel`); with `options.input`
 * a text field too (its placeholder). Resolves to true / the text typed (trimmed; empty counts
 * as no) when confirmed, or null / false when not.
 */
export function ask(message, options = {}) {
  return new Promise((resolve) => {
    const dialog = document.createElement('dialog');
    dialog.className = 'ask';
    dialog.dataset.testid = 'ask';
    const form = document.createElement('form');
    form.method = 'dialog';
    const p = document.createElement('p');
    p.textContent = message;
    form.append(p);
    let field = null;
    if (options.input) {
      field = document.createElement('input');
      field.type = 'text';
      field.maxLength = 500;
      field.placeholder = options.input === true ? '' : options.input;
      field.setAttribute('aria-label', message);
      form.append(field);
    }
    const row = document.createElement('div');
    row.className = 'row';
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.value = 'cancel';
    cancel.textContent = options.cancel || t('dialog.cancel');
    const ok = document.createElement('button');
    ok.type = 'submit';
    ok.value = 'ok';
    ok.className = options.danger ? 'danger' : 'primary';
    ok.textContent = options.ok || t('dialog.ok');
    row.append(cancel, ok);
    form.append(row);
    dialog.append(form);
    let answered = false;
    const answer = (yes) => {
      if (answered) return;
      answered = true;
      const text = field ? field.value.trim() : '';
      dialog.close();
      dialog.remove();
      if (field) resolve(yes && text ? text : null);
      else resolve(yes);
    };
    cancel.onclick = () => answer(false);
    form.onsubmit = (e) => {
      e.preventDefault();
      answer(true);
    };
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      answer(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    (field || ok).focus();
  });
}
