// A spinner with the seconds elapsed, on stderr when it is a terminal; nothing at all when piped.
const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Progress {
  stop(): void;
}

export function startProgress(label: string, stream = process.stderr): Progress {
  if (!stream.isTTY) return { stop() {} };
  const started = Date.now();
  let frame = 0;
  const draw = () => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    stream.cursorTo(0);
    stream.write(`${frames[frame++ % frames.length]} ${label}… ${seconds} s`);
    stream.clearLine(1);
  };
  draw();
  const timer = setInterval(draw, 100);
  return {
    stop() {
      clearInterval(timer);
      stream.cursorTo(0);
      stream.clearLine(0);
    },
  };
}
