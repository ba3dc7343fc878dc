// Import each module that registers background jobs (see server/background.ts).
export {};
