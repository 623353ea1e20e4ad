// English: the reference catalogue. Every key lives here first; the other languages follow it
// key for key (a test checks). `{name}` is replaced by the value the caller gives.
export default {
  'nav.lobby': 'Lobby',
  'nav.tournaments': 'Tournaments',
  'nav.my_page': 'My page',
  'nav.messages': 'Messages',
  'nav.moderation': 'Moderation',
  'nav.log_out': 'Log out',
  'nav.log_in': 'Log in',
  'nav.language': 'Language',
  'error.network': 'The server cannot be reached. Check your connection.',
};
