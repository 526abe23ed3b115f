// As `vitepress init` writes it: the default theme, and the site's stylesheet imported with it.
import DefaultTheme from 'vitepress/theme'
import './style.css'
import '../../shared/look.css'

export default DefaultTheme
