// The loader of a server-rendered page's code (decision 052). The page came as HTML with its data
// and is there to read; its code (React, the router, the page's route) only makes it interactive.
// So the code is fetched once the page has loaded (its style sheet and the photos it shows first)
// and been painted, rather than competing with them for a phone's bandwidth and processor; or at
// once, if the visitor touches, clicks or types before then. The server names the code in
// <script type="application/json" id="karoo-code">: {"entry": "/assets/index-....js",
// "preload": ["/assets/react-....js", ...]}. Plain ES5 and no module: it runs in any browser, under
// the page's Content-Security-Policy (script-src 'self').
(function () {
  var data = document.getElementById('karoo-code');
  if (!data) return;
  var code;
  try {
    code = JSON.parse(data.textContent || '');
  } catch (e) {
    return;
  }
  if (!code || typeof code.entry !== 'string') return;
  var EARLY = ['pointerdown', 'keydown', 'touchstart', 'focusin'];
  var started = false;

  function add(tag, attributes) {
    var element = document.createElement(tag);
    for (var name in attributes) element.setAttribute(name, attributes[name]);
    document.head.appendChild(element);
  }

  function start() {
    if (started) return;
    started = true;
    for (var i = 0; i < EARLY.length; i++) removeEventListener(EARLY[i], start, true);
    var preload = code.preload || [];
    for (var j = 0; j < preload.length; j++) add('link', { rel: 'modulepreload', crossorigin: '', href: preload[j] });
    add('script', { type: 'module', crossorigin: '', src: code.entry });
  }

  // Once the page is on the screen: its first contentful paint has been presented (the browser
  // reports it after the frame is shown, where an animation frame runs before it is drawn), then
  // two more frames, so the photos that finished loading with the page are shown too.
  function whenPainted(then) {
    var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
    if (!types || types.indexOf('paint') < 0) return then();
    var observer = new PerformanceObserver(function (list, self) {
      var entries = list.getEntries();
      for (var i = 0; i < entries.length; i++) {
        if (entries[i].name === 'first-contentful-paint') {
          self.disconnect();
          return then();
        }
      }
    });
    observer.observe({ type: 'paint', buffered: true });
  }

  function afterLoad() {
    whenPainted(function () {
      requestAnimationFrame(function () {
        requestAnimationFrame(function () {
          setTimeout(start, 0);
        });
      });
    });
  }

  for (var k = 0; k < EARLY.length; k++) addEventListener(EARLY[k], start, true);
  if (document.readyState === 'complete') afterLoad();
  else addEventListener('load', afterLoad);
  // A photo that never finishes loading must not keep the page lifeless.
  setTimeout(start, 5000);
})();
