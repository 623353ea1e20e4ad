// 한국어 (Korean), key for key after lang-en.js.
export default {
  'nav.lobby': '대국실',
  'nav.tournaments': '대회',
  'nav.my_page': '내 정보',
  'nav.messages': '쪽지',
  'nav.moderation': '운영',
  'nav.log_out': '로그아웃',
  'nav.log_in': '로그인',
  'nav.language': '언어',
  'error.network': '서버에 연결할 수 없습니다. 연결을 확인하세요.',
};
