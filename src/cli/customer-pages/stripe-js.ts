import { CARD_CHOICES } from './test-cards.js'

/** Where serve offers the browser-library stand-in, as the provider serves its own (`js.stripe.com/v3/`). */
export const STRIPE_JS_PATH = '/v3/stripe.js'

/**
 * The stand-in for the provider's browser library that serve answers at {@link STRIPE_JS_PATH}:
 * `Stripe(publishableKey)` with `elements()` (a payment element of test-card choices),
 * `confirmPayment`, `confirmSetup`, `confirmCardPayment`, `confirmCardSetup`, `handleNextAction`,
 * `handleCardAction`, `retrievePaymentIntent`, `retrieveSetupIntent` and `redirectToCheckout`.
 * Each calls serve's API with the publishable key and the client secret, as the real one does;
 * a 3-D Secure challenge opens a small in-page dialog (`#service-sim-3ds`) with buttons to
 * complete or fail it. Plain script, no build step: the cards are written in once, when the module loads.
 *
 * @example
 * STRIPE_JS.includes('window.Stripe = Stripe') // true; served as application/javascript
 */
export const STRIPE_JS: string = `/* service-sim stand-in for the provider's browser library: test cards only, no real payment. */
(function () {
  'use strict'
  var script = document.currentScript
  var BASE = script && script.src ? new URL(script.src).origin : location.origin
  var CARDS = ${JSON.stringify(CARD_CHOICES)}
  function form(params) {
    var out = []
    Object.keys(params).forEach(function (k) { if (params[k] !== undefined && params[k] !== null) out.push(encodeURIComponent(k) + '=' + encodeURIComponent(params[k])) })
    return out.join('&')
  }
  function idOf(secret) { return String(secret || '').split('_secret_')[0] }
  function kindOf(secret) { return String(secret || '').indexOf('seti_') === 0 ? 'setup_intents' : 'payment_intents' }
  function errorOf(json, status) {
    var e = (json && json.error) || { type: 'api_error', message: 'HTTP ' + status }
    return e
  }

  function Stripe(publishableKey, options) {
    if (!(this instanceof Stripe)) return new Stripe(publishableKey, options)
    if (typeof publishableKey !== 'string' || publishableKey.indexOf('pk_') !== 0) throw new Error('Stripe(): expected a publishable key (pk_...)')
    var key = publishableKey
    var account = options && options.stripeAccount
    var self = this

    function api(method, path, params) {
      var headers = { Authorization: 'Bearer ' + key }
      if (account) headers['Stripe-Account'] = account
      var url = BASE + path
      var init = { method: method, headers: headers }
      if (method === 'GET') url += '?' + form(params)
      else { headers['Content-Type'] = 'application/x-www-form-urlencoded'; init.body = form(params) }
      return fetch(url, init).then(function (res) {
        return res.json().then(function (json) { return res.ok ? { object: json } : { error: errorOf(json, res.status) } })
      })
    }
    function retrieve(secret) { return api('GET', '/v1/' + kindOf(secret) + '/' + idOf(secret), { client_secret: secret }) }
    function customerAction(path, body) {
      return fetch(BASE + '/__customer/actions/' + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
        .then(function (res) { return res.json() })
    }

    // The issuer's challenge: a dialog the customer (or a browser test) completes or fails.
    function challenge(intent) {
      return new Promise(function (resolve) {
        var dialog = document.createElement('dialog')
        dialog.id = 'service-sim-3ds'
        dialog.innerHTML = '<p>3-D Secure test challenge</p><p>Authenticate this payment?</p>' +
          '<button type="button" id="service-sim-3ds-complete">Complete</button> <button type="button" id="service-sim-3ds-fail">Fail</button>'
        document.body.appendChild(dialog)
        function done(outcome) {
          dialog.close(); dialog.remove()
          var body = { outcome: outcome }; body[intent.object] = intent.id
          customerAction('authenticate', body).then(resolve, resolve)
        }
        dialog.querySelector('#service-sim-3ds-complete').onclick = function () { done('complete') }
        dialog.querySelector('#service-sim-3ds-fail').onclick = function () { done('fail') }
        if (dialog.showModal) dialog.showModal(); else dialog.setAttribute('open', '')
      })
    }

    // After a confirmation: run the next action in the page, then read the intent again.
    function settle(result, secret, name) {
      if (result.error) return retrieve(secret).then(function (again) { var out = { error: result.error }; if (again.object) out[name] = again.object; return out })
      var intent = result.object
      if (intent.status !== 'requires_action') return Promise.resolve(finish(intent, name))
      var redirect = intent.next_action && intent.next_action.redirect_to_url
      if (redirect && redirect.url) { location.href = redirect.url; return new Promise(function () {}) }
      return challenge(intent).then(function () { return retrieve(secret) }).then(function (again) {
        if (again.error) return { error: again.error }
        return finish(again.object, name)
      })
    }
    function finish(intent, name) {
      var out = {}
      var failure = intent.last_payment_error || intent.last_setup_error
      if (intent.status === 'requires_payment_method' && failure) {
        out.error = Object.assign({}, failure)
        out.error[name] = intent
        return out
      }
      out[name] = intent
      return out
    }
    function methodOf(given, elements) {
      if (typeof given === 'string') return given
      if (given && typeof given.card === 'object' && given.card && given.card._selected) return given.card._selected()
      if (elements && elements._selected) return elements._selected()
      return undefined
    }
    function goTo(returnUrl, intent, name, redirect) {
      if (!returnUrl || redirect === 'if_required') return false
      var u = new URL(returnUrl, location.href)
      u.searchParams.set(name, intent.id)
      u.searchParams.set(name + '_client_secret', intent.client_secret)
      u.searchParams.set('redirect_status', intent.status === 'succeeded' || intent.status === 'processing' ? 'succeeded' : 'failed')
      location.href = u.href
      return true
    }
    function confirm(kind, name, secret, pm, returnUrl, redirect) {
      return api('POST', '/v1/' + kind + '/' + idOf(secret) + '/confirm', { client_secret: secret, payment_method: pm })
        .then(function (r) { return settle(r, secret, name) })
        .then(function (out) {
          if (!out.error && goTo(returnUrl, out[name], name, redirect)) return new Promise(function () {})
          return out
        })
    }

    this.elements = function (options) {
      var clientSecret = options && options.clientSecret
      var mounted = []
      var elements = {
        _clientSecret: clientSecret,
        _selected: function () {
          for (var i = 0; i < mounted.length; i++) { var v = mounted[i]._selected(); if (v) return v }
          return undefined
        },
        create: function (type, opts) {
          var node = null
          var handlers = {}
          var element = {
            type: type,
            mount: function (target) {
              var host = typeof target === 'string' ? document.querySelector(target) : target
              node = document.createElement('fieldset')
              node.className = 'service-sim-payment-element'
              node.innerHTML = '<legend>Test card</legend>' + CARDS.map(function (c, i) {
                return '<label><input type="radio" name="service-sim-card" value="' + c.token + '"' + (i === 0 ? ' checked' : '') + '> ' + c.label + '</label><br>'
              }).join('')
              host.appendChild(node)
              node.addEventListener('change', function () { (handlers.change || []).forEach(function (h) { h({ elementType: type, complete: true, empty: false }) }) })
              ;(handlers.ready || []).forEach(function (h) { h({ elementType: type }) })
              return element
            },
            unmount: function () { if (node) node.remove(); node = null },
            destroy: function () { element.unmount() },
            on: function (event, handler) { (handlers[event] = handlers[event] || []).push(handler); return element },
            update: function () { return element },
            focus: function () {},
            _selected: function () { var c = node && node.querySelector('input:checked'); return c ? c.value : undefined },
          }
          mounted.push(element)
          return element
        },
        getElement: function (type) { for (var i = 0; i < mounted.length; i++) if (mounted[i].type === type) return mounted[i]; return null },
        submit: function () { return Promise.resolve({}) },
        update: function () {},
        fetchUpdates: function () { return Promise.resolve({}) },
      }
      return elements
    }
    this.confirmPayment = function (o) {
      var secret = o.clientSecret || (o.elements && o.elements._clientSecret)
      var params = o.confirmParams || {}
      return confirm('payment_intents', 'paymentIntent', secret, methodOf(params.payment_method, o.elements), params.return_url, o.redirect)
    }
    this.confirmSetup = function (o) {
      var secret = o.clientSecret || (o.elements && o.elements._clientSecret)
      var params = o.confirmParams || {}
      return confirm('setup_intents', 'setupIntent', secret, methodOf(params.payment_method, o.elements), params.return_url, o.redirect)
    }
    this.confirmCardPayment = function (secret, data) {
      return confirm('payment_intents', 'paymentIntent', secret, methodOf(data && data.payment_method), data && data.return_url, 'if_required')
    }
    this.confirmCardSetup = function (secret, data) {
      return confirm('setup_intents', 'setupIntent', secret, methodOf(data && data.payment_method), data && data.return_url, 'if_required')
    }
    this.handleNextAction = function (o) {
      var secret = o.clientSecret
      var name = kindOf(secret) === 'setup_intents' ? 'setupIntent' : 'paymentIntent'
      return retrieve(secret).then(function (r) { return settle(r, secret, name) })
    }
    this.handleCardAction = function (secret) { return self.handleNextAction({ clientSecret: secret }) }
    this.retrievePaymentIntent = function (secret) { return retrieve(secret).then(function (r) { return r.error ? r : { paymentIntent: r.object } }) }
    this.retrieveSetupIntent = function (secret) { return retrieve(secret).then(function (r) { return r.error ? r : { setupIntent: r.object } }) }
    this.redirectToCheckout = function (o) {
      if (!o || typeof o.sessionId !== 'string') return Promise.resolve({ error: { type: 'invalid_request_error', message: 'redirectToCheckout: sessionId is required' } })
      location.href = BASE + '/__customer/checkout/' + encodeURIComponent(o.sessionId)
      return new Promise(function () {})
    }
  }
  window.Stripe = Stripe
})()
`
