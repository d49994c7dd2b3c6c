/** pino's options for where logs go: readable lines on a terminal, JSON (one object a line) otherwise */
export function prettyOnTerminal(): { transport?: { target: string; options: Record<string, unknown> } } {
  return process.stdout.isTTY
    ? {
        transport: {
          target: "pino-pretty",
          options: { translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" },
        },
      }
    : {};
}
