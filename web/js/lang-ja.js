// 日本語 (Japanese), key for key after lang-en.js.
export default {
  'nav.lobby': 'ロビー',
  'nav.tournaments': '大会',
  'nav.my_page': 'マイページ',
  'nav.messages': 'メッセージ',
  'nav.moderation': 'モデレーション',
  'nav.log_out': 'ログアウト',
  'nav.log_in': 'ログイン',
  'nav.language': '言語',
  'error.network': 'サーバーに接続できません。接続を確認してください。',
};
