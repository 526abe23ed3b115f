// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

export const locales = {
	root: { label: 'English', lang: 'en' },
	fr: { label: 'Français', lang: 'fr' },
};

export default defineConfig({
	integrations: [
		starlight({
			title: 'Sample',
			customCss: ['./src/styles/custom.css'],
			locales,
			sidebar: [
				{
					label: 'Start Here',
					translations: { fr: 'Commencez ici' },
					items: ['getting-started', { label: 'Custom link label', slug: 'custom-slug/page' }],
				},
				{
					label: 'Guides',
					translations: { fr: 'Guides FR' },
					items: [{ autogenerate: { directory: 'guides' } }],
				},
				{
					label: 'Reference',
					items: [{ label: 'Nested', items: [{ autogenerate: { directory: 'reference' } }] }],
				},
			],
		}),
	],
});
