// 中文 (Chinese, simplified), key for key after lang-en.js.
export default {
  'nav.lobby': '大厅',
  'nav.tournaments': '比赛',
  'nav.my_page': '我的主页',
  'nav.messages': '消息',
  'nav.moderation': '管理',
  'nav.log_out': '退出',
  'nav.log_in': '登录',
  'nav.language': '语言',
  'error.network': '无法连接服务器。请检查网络连接。',
};
