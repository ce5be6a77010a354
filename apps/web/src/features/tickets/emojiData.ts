/** A compact emoji set for the composer's picker (no external package). */
export const EMOJI_GROUPS = [
  {
    key: 'smileys',
    icon: '😀',
    emojis:
      '😀 😃 😄 😁 😆 😅 😂 🤣 😊 😇 🙂 🙃 😉 😌 😍 🥰 😘 😗 😙 😚 😋 😛 😝 😜 🤪 🤨 🧐 🤓 😎 🤩 🥳 😏 😒 😞 😔 😟 😕 🙁 😣 😖 😫 😩 🥺 😢 😭 😤 😠 😡 🤯 😳 🥵 🥶 😱 😨 😰 😥 😓 🤗 🤔 🤭 🤫 🤥 😶 😐 😑 😬 🙄 😯 😦 😧 😮 😲 🥱 😴 🤤 😪 😵 🤐 🥴 🤢 🤮 🤧 😷 🤒 🤕',
  },
  {
    key: 'gestures',
    icon: '👍',
    emojis: '👍 👎 👌 🤌 ✌️ 🤞 🤟 🤘 🤙 👈 👉 👆 👇 ☝️ ✋ 🤚 🖐️ 🖖 👋 🤝 🙏 👏 🙌 👐 🤲 💪 ✍️ 🤳 💅 👀 🧠',
  },
  {
    key: 'hearts',
    icon: '❤️',
    emojis: '❤️ 🧡 💛 💚 💙 💜 🖤 🤍 🤎 💔 ❣️ 💕 💞 💓 💗 💖 💘 💝 💯 ✨ ⭐ 🌟 🔥 🎉 🎊 ✅ ❌ ⚠️ ❓ ❗',
  },
  {
    key: 'objects',
    icon: '📎',
    emojis:
      '📱 💻 ⌨️ 🖨️ 📷 📞 ☎️ 📠 📺 ⏰ ⌛ 💡 🔋 💰 💳 🧾 📦 📫 📝 📎 📌 📅 📆 🗓️ 🔒 🔑 🛒 🎁 🚗 🚚 ✈️ 🏠 🏢 ☕ 🍕 🍔 🍰 🥂',
  },
  {
    key: 'nature',
    icon: '🌱',
    emojis: '☀️ 🌤️ ⛅ 🌧️ ⛈️ 🌈 ❄️ 🌊 🌱 🌿 🍀 🌵 🌴 🌳 🌻 🌹 🌷 🌸 🐶 🐱 🐭 🐰 🦊 🐻 🐼 🐨 🐯 🦁 🐮 🐷 🐸 🐵 🐔 🐧 🐦 🦋 🐝',
  },
] as const;

export type TEmojiGroupKey = (typeof EMOJI_GROUPS)[number]['key'];

export const emojisOf = (key: TEmojiGroupKey): string[] =>
  EMOJI_GROUPS.find((g) => g.key === key)
    ?.emojis.split(' ')
    .filter(Boolean) ?? [];
