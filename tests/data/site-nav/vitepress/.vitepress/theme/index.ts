// As `vitepress init` writes it: the default theme, and the site's stylesheet imported with it; and
// a component registered for every page.
import DefaultTheme from 'vitepress/theme'
import Global from '../../components/Global.vue'
import './style.css'
import '../../shared/look.css'

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('GlobalThing', Global)
  },
}
