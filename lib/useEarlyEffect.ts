/**
 * A layout effect in the browser (it runs before every passive effect of the same commit, the app shell's page view
 * included), a plain effect during server rendering (where layout effects warn). For taking one-time secrets out of the
 * address bar before anything can record them.
 */
import { useEffect, useLayoutEffect } from 'react';

export const useEarlyEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;
