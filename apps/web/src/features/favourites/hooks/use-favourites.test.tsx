// Hydration renders a public page once (decision 053): the favourites store, read at the top of the
// browse and car routes, must give the server's own snapshot when nothing is stored, or React
// renders the whole route again at once, with no time slicing.
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { FAVOURITES_KEY } from '../utils/favourites-storage';
import { useFavourites } from './use-favourites';

let renders = 0;
function Hearts() {
  renders += 1;
  return <p>{useFavourites().items.length} saved</p>;
}

async function hydrate(): Promise<{ renders: number; text: string }> {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Hearts />);
  document.body.append(container);
  renders = 0;
  const root = await act(async () => hydrateRoot(container, <Hearts />));
  const text = container.textContent ?? '';
  act(() => root.unmount());
  container.remove();
  return { renders, text };
}

afterEach(() => window.localStorage.clear());

describe('useFavourites while a page hydrates', () => {
  it('renders once when nothing is stored (the server’s snapshot is the first one)', async () => {
    expect(await hydrate()).toEqual({ renders: 1, text: '0 saved' });
  });

  it('renders again, to show what the browser has stored', async () => {
    window.localStorage.setItem(FAVOURITES_KEY, JSON.stringify([{ id: 'c1', car_username: 'toyota-corolla-1', name: 'Toyota Corolla', dateAdded: '2030-03-01T08:00:00.000Z' }]));
    const { renders: count, text } = await hydrate();
    expect(count).toBe(2);
    expect(text).toBe('1 saved');
  });
});
