/** Whether a page transition animation is running (docs/PRODUCT.md, Browser state). Deliberately not persisted. */
import { create } from 'zustand';

export type AnimationState = { isAnimating: boolean; setIsAnimating: (isAnimating: boolean) => void };

export const useAnimationStore = create<AnimationState>()((set) => ({
  isAnimating: false,
  setIsAnimating: (isAnimating) => set({ isAnimating }),
}));
