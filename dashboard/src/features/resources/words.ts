import { definePageWords } from '../../lib/i18n/page-words.ts';

const en = {
  title: 'Resources',
  newResource: 'New resource',
  location: 'Location:',
  loadingLocations: 'Loading locations…',
  intro: 'A service that needs a resource takes one unit of it for the whole booking.',
  noLocation: 'This business has no location yet.',
  loading: 'Loading resources…',
  empty: 'No resource at this location yet.',
  edit: (name: string) => `Edit ${name}`,
  name: 'Name',
  quantity: 'Quantity',
  state: 'State',
  actions: 'Actions',
  active: 'Active',
  inactive: 'Inactive',
  save: 'Save resource',
  create: 'Create resource',
  quantityHint: 'How many units the location has, 1 to 50.',
  activeHint: 'An inactive resource cannot be newly chosen for a service.',
};

const hu: typeof en = {
  title: 'Eszközök',
  newResource: 'Új eszköz',
  location: 'Helyszín:',
  loadingLocations: 'Helyszínek betöltése…',
  intro: 'Az eszközt igénylő szolgáltatás a teljes foglalás idejére lefoglal belőle egy darabot.',
  noLocation: 'Ennek a vállalkozásnak még nincs helyszíne.',
  loading: 'Eszközök betöltése…',
  empty: 'Ezen a helyszínen még nincs eszköz.',
  edit: (name: string) => `${name} szerkesztése`,
  name: 'Név',
  quantity: 'Darabszám',
  state: 'Állapot',
  actions: 'Műveletek',
  active: 'Aktív',
  inactive: 'Inaktív',
  save: 'Eszköz mentése',
  create: 'Eszköz létrehozása',
  quantityHint: 'Hány darab van belőle a helyszínen, 1 és 50 között.',
  activeHint: 'Inaktív eszközt nem lehet újonnan szolgáltatáshoz választani.',
};

/** The Resources page's words, in its own chunk: no other page uses them (lib/i18n/page-words.ts). */
export const resourcesWords = definePageWords(en, hu);
