// A short, readable name for a User-Agent string ("Chrome 131 on macOS"), for the activity list.
// Best effort by design: the full string is always shown next to it. The browsers' and systems'
// names are product names, the same in every language; the words around them are the catalogue's.

import { t } from "./language.js";

const BROWSERS = [
  [/\bEdg(?:A|iOS)?\/(\d+)/, "Edge"],
  [/\bOPR\/(\d+)/, "Opera"],
  [/\bSamsungBrowser\/(\d+)/, "Samsung Internet"],
  [/\bFirefox\/(\d+)/, "Firefox"],
  [/\bFxiOS\/(\d+)/, "Firefox"],
  [/\bCriOS\/(\d+)/, "Chrome"],
  [/\bHeadlessChrome\/(\d+)/, "Headless Chrome"],
  [/\bChrome\/(\d+)/, "Chrome"],
  [/\bVersion\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, "Safari"],
];

const SYSTEMS = [
  [/\b(?:iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bWindows\b/, "Windows"],
  [/\bLinux\b/, "Linux"],
];

/** "Firefox 133 on Windows", "Safari 18 on iOS", "curl" …; "Unknown browser" for "". */
export function browserName(userAgent) {
  const ua = String(userAgent || "").trim();
  if (!ua) return t("agent.unknown");
  let browser = null;
  for (const [pattern, name] of BROWSERS) {
    const match = ua.match(pattern);
    if (match) {
      browser = `${name} ${match[1]}`;
      break;
    }
  }
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua));
  if (browser) return system ? t("agent.browserOn", { browser, system: system[1] }) : browser;
  // Not a browser (an app, a script): its first product token, e.g. "okhttp/4.12" → "okhttp".
  const product = ua.split(/[\s/;(]/)[0];
  return product ? product.slice(0, 40) : t("agent.unknown");
}
