import { SAUDI_CITIES, type SaudiCity } from "./saudi-cities.js";

/**
 * Folds the ways one city name is written: case, hyphens and repeated spaces, apostrophes, and in Arabic
 * the hamza forms of alef, taa marbuta and alef maqsura, and tatweel.
 */
export function normalizeCityName(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/['’`]/g, "")
    .replace(/[-_]+/g, " ")
    .replace(/[أإآٱ]/g, "ا")
    .replace(/ة/g, "ه")
    .replace(/ى/g, "ي")
    .replace(/ـ/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

const INDEX: ReadonlyMap<string, SaudiCity> = (() => {
  const index = new Map<string, SaudiCity>();
  for (const city of SAUDI_CITIES) {
    for (const name of [city.nameEn, city.nameAr, ...city.aliases]) {
      const key = normalizeCityName(name);
      if (!index.has(key)) index.set(key, city);
    }
  }
  return index;
})();

/** the built-in Saudi city or governorate that `name` names, in English or Arabic, or undefined */
export function findCity(name: string): SaudiCity | undefined {
  return INDEX.get(normalizeCityName(name));
}

export function listCities(): readonly SaudiCity[] {
  return SAUDI_CITIES;
}
