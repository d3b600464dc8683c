import type { ChatQuickReply } from '../chat';
import { smsLanguages, type SmsLanguageCode as SmsLanguage } from '../languages';

/**
 * Steps that turn location back on after the caller blocked it, for the browser in their hand.
 * Menu names are the ones the phone shows in that language.
 */
export interface PermissionSteps {
  /** Safari on an iPhone or iPad. */
  ios: readonly string[];
  /** Chrome on Android. */
  android: readonly string[];
  /** Any other browser. */
  other: readonly string[];
}

/** Every string the caller's page (`/share`) shows. */
export interface CallerPageTexts {
  /** The browser tab's title. */
  documentTitle: string;
  /** The accessible name of the language switcher. */
  languageSwitcher: string;
  loading: string;
  loadFailedTitle: string;
  loadFailedBody: string;
  /** The button that retries what failed (loading the page, or asking for location again). */
  tryAgainButton: string;

  /** The request, before the caller agrees to anything. */
  requestTitle: string;
  requestFrom(agencyName: string): string;
  requestWhy: string;
  /** Names {@link stopButton} as written on the button. */
  requestWhat: string;
  requestConsent: string;
  shareButton: string;

  /** While waiting for the first fix. */
  startingStatus: string;
  allowHint: string;
  sharingTitle: string;
  sharingBody: string;
  /** `meters` is already rounded. */
  accuracy(meters: number): string;
  /** `time` is already formatted for {@link CallerTexts.locale}. */
  lastUpdate(time: string): string;
  connecting: string;
  connected: string;
  reconnecting: string;
  /**
   * This page gave the connection to another tab on the same link (close 4409); it takes it back
   * when the caller comes back to it.
   */
  openInAnotherTab: string;
  stopButton: string;
  positionUnavailable: string;
  positionTimeout: string;

  /** After the caller tapped Stop sharing. */
  stoppedTitle: string;
  stoppedBody: string;
  shareAgainButton: string;

  /** After the caller (or the phone) refused location access. */
  deniedTitle: string;
  deniedBody: string;
  deniedSteps: PermissionSteps;

  /** No Geolocation API, or the page is not on HTTPS. */
  unsupportedTitle: string;
  unsupportedBody: string;

  /** The link's final states. */
  endedTitle: string;
  endedBody: string;
  expiredTitle: string;
  expiredBody: string;
  /** The caller texted STOP. */
  optedOutTitle: string;
  optedOutBody: string;
  invalidTitle: string;
  invalidBody: string;
  /** Said under every page where the link no longer works. */
  callForHelp: string;
  /** Positions kept on the phone while the connection is down; they are sent when it returns. */
  queuedFixes(count: number): string;
  /** The folded panel of technical notes (for support staff), e.g. a position the server refused. */
  debugTitle: string;

  /** "Your location": the phone's newest position, in words a caller can read over the phone. */
  yourLocationTitle: string;
  readToDispatcher: string;
  plusCodeLabel: string;
  coordinatesLabel: string;
  /** `time` is already formatted for {@link CallerTexts.locale}. */
  takenAt(time: string): string;
  /** Offered when positions have not got through for a while: a text message may. */
  textFallbackBody: string;
  sendByTextButton: string;
  sendByTextHint: string;

  /** The chat with the dispatcher (issue 12), shown once the dispatcher opens it. */
  chatTitle: string;
  chatIntro: string;
  /** The accessible name of the message list. */
  chatLogLabel: string;
  chatEmpty: string;
  chatInputLabel: string;
  chatSendButton: string;
  /** Who wrote a message: the dispatcher (when the server gives no name) or the caller. */
  chatFromDispatcher: string;
  chatFromYou: string;
  chatSending: string;
  /** A message of the caller's that the server refused; its reason follows. */
  chatNotSent: string;
  /** While the dispatcher's message is being translated. */
  chatTranslating: string;
  /** No engine could translate it: the original is shown with this mark. */
  chatNotTranslated: string;
  chatShowOriginal: string;
  chatShowTranslation: string;
  /** Marks the original text when it is shown under the translation. */
  chatOriginalLabel: string;

  /**
   * Video and photos (issue 19): a dispatcher's request, shown with Allow / Not now. Nothing
   * leaves the phone until the caller taps Allow; a decline is told to the dispatcher.
   */
  mediaVideoRequestTitle: string;
  mediaVideoRequestBody: string;
  /** Added when the dispatcher asked for sound as well. */
  mediaVideoAudioNote: string;
  mediaPhotoRequestTitle: string;
  /** `max` is the number of photos the caller may send. */
  mediaPhotoRequestBody(max: number): string;
  mediaAllowButton: string;
  mediaDeclineButton: string;
  mediaDeclined: string;
  /** The banner shown for as long as the camera runs. */
  cameraOnBanner: string;
  cameraStarting: string;
  /** The accessible name of the caller's own camera preview. */
  cameraPreviewLabel: string;
  cameraSwitchButton: string;
  cameraStopButton: string;
  cameraStopped: string;
  cameraBlocked: string;
  /** The video could not be sustained: still pictures are sent instead. */
  cameraStills: string;
  photoPickButton: string;
  /** The list of photos picked, with each one's progress. */
  photoListLabel: string;
  /** `percent` is already rounded. */
  photoSending(percent: number): string;
  photoSent: string;
  /** A photo that was not sent; its reason follows. */
  photoNotSent: string;
  photoNetworkError: string;
  photoNotImage: string;
  /** `max` photos have been sent or picked: the rest were left out. */
  photoTooMany(max: number): string;
  photoDoneButton: string;
}

export interface CallerTexts {
  /** The language's own name, for the language switcher: English, Español, Français, 中文. */
  languageName: string;
  /** BCP 47 tag for the page's `lang` attribute and for formatting times. */
  locale: string;
  /**
   * The SMS body. Contains `link` verbatim and tells how to opt out (STOP) and get help (HELP).
   * With a 15-character agency name and a 77-character link it fits in 160 characters (en, es,
   * fr); en and fr stay within the GSM 7-bit alphabet, es needs accents (so UCS-2).
   */
  sms(params: { agencyName: string; link: string }): string;
  /** The automatic answer to an inbound HELP. */
  smsHelpReply: string;
  /** The automatic answer to an inbound STOP (no more messages, links stop working). */
  smsStopReply: string;
  /**
   * "Ask for location by text": how to reply with a position when the page cannot get through,
   * a map app's shared pin or a Plus Code. Within 320 characters (two texts).
   */
  smsAskLocation: string;
  /**
   * The dispatcher's chat quick replies in this language, written beforehand so that they reach
   * the caller without a translation engine.
   */
  quickReplies: Record<ChatQuickReply, string>;
  page: CallerPageTexts;
}

const en: CallerTexts = {
  languageName: 'English',
  locale: 'en-US',
  sms: ({ agencyName, link }) =>
    `${agencyName} asks for your location: ${link} Reply STOP to opt out, HELP for help.`,
  smsHelpReply:
    'Locus: this number sends location requests for emergency services. If you need help now, call 911. Reply STOP to stop these messages.',
  smsStopReply:
    'Locus: you will not get more messages from this number. Links you received no longer work. If you need help, call 911.',
  smsAskLocation:
    'Locus: please reply with your location. In your maps app, tap the blue dot, then Share, and send it to this number. Or reply with the Plus Code your maps app shows (letters and digits with a + in the middle).',
  quickReplies: {
    'are-you-safe': 'Are you safe?',
    'can-you-talk': 'Can you talk?',
    'stay-on-page': 'Stay on this page.',
    'help-on-the-way': 'Help is on the way.',
  },
  page: {
    documentTitle: 'Share your location',
    languageSwitcher: 'Language',
    loading: 'Loading…',
    loadFailedTitle: "This page didn't load",
    loadFailedBody: 'Check your signal, then try again.',
    tryAgainButton: 'Try again',

    requestTitle: 'Share your location',
    requestFrom: (agencyName) => `${agencyName} is asking for your location.`,
    requestWhy: 'It helps emergency responders find you.',
    requestWhat:
      'If you agree, your live location is shared while this page is open, until you tap Stop sharing.',
    requestConsent: 'Nothing is shared until you tap the button below.',
    shareButton: 'Share my location',

    startingStatus: 'Finding your location…',
    allowHint: 'If your phone asks, tap Allow.',
    sharingTitle: 'Sharing your location',
    sharingBody: 'Keep this page open. Your location updates as you move.',
    accuracy: (meters) => `Accuracy: ±\u00a0${meters}\u00a0m`,
    lastUpdate: (time) => `Last update: ${time}`,
    connecting: 'Connecting…',
    connected: 'Connected',
    reconnecting: 'Connection lost. Reconnecting…',
    openInAnotherTab:
      'This link is also open in another tab. This tab connects again when you come back to it.',
    stopButton: 'Stop sharing',
    positionUnavailable:
      "Your phone can't find your location. Make sure location is on, then go outside or near a window.",
    positionTimeout:
      'Finding your location is taking longer than usual. Keep this page open and go outside or near a window if you can.',

    stoppedTitle: 'You stopped sharing',
    stoppedBody: 'Your location is no longer shared.',
    shareAgainButton: 'Share again',

    deniedTitle: 'Location is blocked',
    deniedBody: 'Your phone did not let this page use your location. To allow it:',
    deniedSteps: {
      ios: [
        'Open Settings, then Privacy & Security > Location Services. Make sure Location Services is on.',
        'Tap Safari Websites and choose While Using the App.',
        'Come back to this page and tap Try again.',
      ],
      android: [
        'Tap the icon to the left of the web address (a lock or two sliders).',
        'Tap Permissions, then Location, and choose Allow.',
        'Make sure Location is on for your phone (swipe down from the top of the screen), then tap Try again.',
      ],
      other: [
        "Open your browser's settings for this site.",
        "Allow Location, and make sure location is on in your phone's settings.",
        'Come back to this page and tap Try again.',
      ],
    },

    unsupportedTitle: "This browser can't share your location",
    unsupportedBody: "Open this link in your phone's main browser, such as Safari or Chrome.",

    endedTitle: 'Request ended',
    endedBody: 'The dispatcher has ended this request. You can close this page.',
    expiredTitle: 'This link has expired',
    expiredBody: 'Links to share your location work for a limited time only.',
    optedOutTitle: 'Messages stopped',
    optedOutBody:
      'You replied STOP, so this link no longer works and you will not get more messages.',
    invalidTitle: "This link doesn't work",
    invalidBody: 'Make sure you opened the whole link from the text message.',
    callForHelp: 'If you still need help, call 911.',
    queuedFixes: (count) =>
      count === 1
        ? '1 position is saved on this phone. It will be sent when the connection returns.'
        : `${count} positions are saved on this phone. They will be sent when the connection returns.`,
    debugTitle: 'Technical details',
    yourLocationTitle: 'Your location',
    readToDispatcher: 'Read this to the dispatcher',
    plusCodeLabel: 'Plus Code',
    coordinatesLabel: 'Coordinates',
    takenAt: (time) => `Taken at ${time}`,
    textFallbackBody: 'Your location is not getting through on the internet. A text message may.',
    sendByTextButton: 'Send my location by text',
    sendByTextHint: 'Your messages app opens with the text ready: just press Send.',

    chatTitle: 'Chat with the dispatcher',
    chatIntro: "If you can't talk, write to the dispatcher here.",
    chatLogLabel: 'Messages',
    chatEmpty: 'No messages yet.',
    chatInputLabel: 'Your message',
    chatSendButton: 'Send',
    chatFromDispatcher: 'Dispatcher',
    chatFromYou: 'You',
    chatSending: 'Sending…',
    chatNotSent: 'Not sent',
    chatTranslating: 'Translating…',
    chatNotTranslated: 'Not translated',
    chatShowOriginal: 'Show original',
    chatShowTranslation: 'Show translation',
    chatOriginalLabel: 'Original',
    mediaVideoRequestTitle: 'The dispatcher asks to see your camera',
    mediaVideoRequestBody:
      'Live video from your phone helps them see what is happening. Nothing is sent unless you tap Allow, and you can stop it at any time.',
    mediaVideoAudioNote: 'Sound from your microphone is sent too.',
    mediaPhotoRequestTitle: 'The dispatcher asks for photos',
    mediaPhotoRequestBody: (max) =>
      `Take or choose up to ${max} photos. Only the photos you pick are sent.`,
    mediaAllowButton: 'Allow',
    mediaDeclineButton: 'Not now',
    mediaDeclined: 'You said not now. The dispatcher has been told.',
    cameraOnBanner: 'Camera on: the dispatcher can see your camera',
    cameraStarting: 'Starting the camera…',
    cameraPreviewLabel: 'What your camera shows',
    cameraSwitchButton: 'Switch camera',
    cameraStopButton: 'Stop video',
    cameraStopped: 'Video stopped.',
    cameraBlocked:
      "Your phone did not let this page use the camera. Allow the camera in your browser's settings for this site.",
    cameraStills:
      'Your connection is slow: a picture from the camera is sent every few seconds instead of video.',
    photoPickButton: 'Take or choose photos',
    photoListLabel: 'Your photos',
    photoSending: (percent) => `Sending… ${percent}\u00a0%`,
    photoSent: 'Sent',
    photoNotSent: 'Not sent',
    photoNetworkError: 'No connection. Try again.',
    photoNotImage: 'This file is not a photo.',
    photoTooMany: (max) => `You can send up to ${max} photos. The others were left out.`,
    photoDoneButton: 'Done',
  },
};

const es: CallerTexts = {
  languageName: 'Español',
  locale: 'es-US',
  sms: ({ agencyName, link }) =>
    `${agencyName} pide su ubicación: ${link} Responda STOP para cancelar, HELP para ayuda.`,
  smsHelpReply:
    'Locus: este número envía solicitudes de ubicación de los servicios de emergencia. Si necesita ayuda ahora, llame al 911. Responda STOP para no recibir más mensajes.',
  smsStopReply:
    'Locus: no recibirá más mensajes de este número. Los enlaces que recibió ya no funcionan. Si necesita ayuda, llame al 911.',
  smsAskLocation:
    'Locus: responda con su ubicación. En su app de mapas, toque el punto azul, luego Compartir, y envíela a este número. O responda con el Plus Code que muestra su app de mapas (letras y números con un + en medio).',
  quickReplies: {
    'are-you-safe': '¿Está a salvo?',
    'can-you-talk': '¿Puede hablar?',
    'stay-on-page': 'Quédese en esta página.',
    'help-on-the-way': 'La ayuda está en camino.',
  },
  page: {
    documentTitle: 'Comparta su ubicación',
    languageSwitcher: 'Idioma',
    loading: 'Cargando…',
    loadFailedTitle: 'No se pudo cargar la página',
    loadFailedBody: 'Revise su señal y vuelva a intentarlo.',
    tryAgainButton: 'Intentar de nuevo',

    requestTitle: 'Comparta su ubicación',
    requestFrom: (agencyName) => `${agencyName} le pide su ubicación.`,
    requestWhy: 'Así los servicios de emergencia pueden saber dónde está.',
    requestWhat:
      'Si acepta, su ubicación en tiempo real se compartirá mientras esta página esté abierta, hasta que toque Dejar de compartir.',
    requestConsent: 'No se comparte nada hasta que toque el botón de abajo.',
    shareButton: 'Compartir mi ubicación',

    startingStatus: 'Buscando su ubicación…',
    allowHint: 'Si su teléfono se lo pregunta, toque Permitir.',
    sharingTitle: 'Compartiendo su ubicación',
    sharingBody: 'Mantenga esta página abierta. Su ubicación se actualiza a medida que se mueve.',
    accuracy: (meters) => `Precisión: ±\u00a0${meters}\u00a0m`,
    lastUpdate: (time) => `Última actualización: ${time}`,
    connecting: 'Conectando…',
    connected: 'Conectado',
    reconnecting: 'Se perdió la conexión. Reconectando…',
    openInAnotherTab:
      'Este enlace también está abierto en otra pestaña. Esta pestaña se vuelve a conectar cuando regresa a ella.',
    stopButton: 'Dejar de compartir',
    positionUnavailable:
      'Su teléfono no encuentra su ubicación. Asegúrese de que la ubicación esté activada y salga al exterior o acérquese a una ventana.',
    positionTimeout:
      'Encontrar su ubicación está tardando más de lo normal. Mantenga esta página abierta y, si puede, salga al exterior o acérquese a una ventana.',

    stoppedTitle: 'Dejó de compartir su ubicación',
    stoppedBody: 'Su ubicación ya no se está compartiendo.',
    shareAgainButton: 'Volver a compartir',

    deniedTitle: 'La ubicación está bloqueada',
    deniedBody: 'Su teléfono no permitió que esta página use su ubicación. Para permitirlo:',
    deniedSteps: {
      ios: [
        'Abra Configuración (o Ajustes) y vaya a Privacidad y seguridad > Localización. Asegúrese de que Localización esté activada.',
        'Toque Sitios web de Safari y elija Cuando se use la app.',
        'Vuelva a esta página y toque Intentar de nuevo.',
      ],
      android: [
        'Toque el ícono a la izquierda de la dirección web (un candado o dos controles deslizantes).',
        'Toque Permisos, luego Ubicación, y elija Permitir.',
        'Asegúrese de que la ubicación del teléfono esté activada (deslice hacia abajo desde la parte superior de la pantalla) y toque Intentar de nuevo.',
      ],
      other: [
        'Abra la configuración del navegador para este sitio.',
        'Permita el acceso a la ubicación y asegúrese de que la ubicación esté activada en la configuración del teléfono.',
        'Vuelva a esta página y toque Intentar de nuevo.',
      ],
    },

    unsupportedTitle: 'Este navegador no puede compartir su ubicación',
    unsupportedBody:
      'Abra este enlace en el navegador principal de su teléfono, como Safari o Chrome.',

    endedTitle: 'Solicitud finalizada',
    endedBody: 'El despachador finalizó esta solicitud. Puede cerrar esta página.',
    expiredTitle: 'Este enlace ha expirado',
    expiredBody: 'Los enlaces para compartir su ubicación solo funcionan por un tiempo limitado.',
    optedOutTitle: 'Mensajes desactivados',
    optedOutBody:
      'Usted respondió STOP, así que este enlace ya no funciona y no recibirá más mensajes.',
    invalidTitle: 'Este enlace no funciona',
    invalidBody: 'Asegúrese de abrir el enlace completo del mensaje de texto.',
    callForHelp: 'Si todavía necesita ayuda, llame al 911.',
    queuedFixes: (count) =>
      count === 1
        ? '1 posición está guardada en este teléfono. Se enviará cuando vuelva la conexión.'
        : `${count} posiciones están guardadas en este teléfono. Se enviarán cuando vuelva la conexión.`,
    debugTitle: 'Detalles técnicos',
    yourLocationTitle: 'Su ubicación',
    readToDispatcher: 'Léale esto al operador',
    plusCodeLabel: 'Código Plus',
    coordinatesLabel: 'Coordenadas',
    takenAt: (time) => `Tomada a las ${time}`,
    textFallbackBody: 'Su ubicación no llega por internet. Un mensaje de texto puede llegar.',
    sendByTextButton: 'Enviar mi ubicación por SMS',
    sendByTextHint: 'Se abrirá su app de mensajes con el texto listo: solo pulse Enviar.',

    chatTitle: 'Chat con el operador',
    chatIntro: 'Si no puede hablar, escríbale aquí al operador.',
    chatLogLabel: 'Mensajes',
    chatEmpty: 'Todavía no hay mensajes.',
    chatInputLabel: 'Su mensaje',
    chatSendButton: 'Enviar',
    chatFromDispatcher: 'Operador',
    chatFromYou: 'Usted',
    chatSending: 'Enviando…',
    chatNotSent: 'No enviado',
    chatTranslating: 'Traduciendo…',
    chatNotTranslated: 'Sin traducir',
    chatShowOriginal: 'Ver el original',
    chatShowTranslation: 'Ver la traducción',
    chatOriginalLabel: 'Texto original',
    mediaVideoRequestTitle: 'El operador pide ver su cámara',
    mediaVideoRequestBody:
      'El video en vivo de su teléfono le ayuda a ver lo que pasa. No se envía nada a menos que toque Permitir, y puede detenerlo en cualquier momento.',
    mediaVideoAudioNote: 'También se envía el sonido de su micrófono.',
    mediaPhotoRequestTitle: 'El operador pide fotos',
    mediaPhotoRequestBody: (max) =>
      `Tome o elija hasta ${max} fotos. Solo se envían las fotos que elija.`,
    mediaAllowButton: 'Permitir',
    mediaDeclineButton: 'Ahora no',
    mediaDeclined: 'Dijo que ahora no. Se le avisó al operador.',
    cameraOnBanner: 'Cámara encendida: el operador puede ver su cámara',
    cameraStarting: 'Encendiendo la cámara…',
    cameraPreviewLabel: 'Lo que muestra su cámara',
    cameraSwitchButton: 'Cambiar de cámara',
    cameraStopButton: 'Detener el video',
    cameraStopped: 'El video se detuvo.',
    cameraBlocked:
      'Su teléfono no permitió que esta página use la cámara. Permita la cámara en la configuración del navegador para este sitio.',
    cameraStills:
      'Su conexión es lenta: en lugar de video se envía una imagen de la cámara cada pocos segundos.',
    photoPickButton: 'Tomar o elegir fotos',
    photoListLabel: 'Sus fotos',
    photoSending: (percent) => `Enviando… ${percent}\u00a0%`,
    photoSent: 'Enviada',
    photoNotSent: 'No enviada',
    photoNetworkError: 'Sin conexión. Vuelva a intentarlo.',
    photoNotImage: 'Este archivo no es una foto.',
    photoTooMany: (max) => `Puede enviar hasta ${max} fotos. Las demás no se incluyeron.`,
    photoDoneButton: 'Listo',
  },
};

// French typography: a no-break space before ":" keeps it on the same line as the word before.
const fr: CallerTexts = {
  languageName: 'Français',
  locale: 'fr',
  // SMS: a plain space (the GSM alphabet has no no-break space).
  sms: ({ agencyName, link }) =>
    `${agencyName} demande votre position : ${link} STOP pour annuler, HELP pour de l'aide.`,
  smsHelpReply:
    "Locus : ce numéro envoie des demandes de localisation pour les services d'urgence. En cas d'urgence, appelez le 911. Répondez STOP pour ne plus recevoir de messages.",
  smsStopReply:
    "Locus : vous ne recevrez plus de messages de ce numéro. Les liens reçus ne fonctionnent plus. Si vous avez besoin d'aide, appelez le 911.",
  smsAskLocation:
    'Locus : répondez avec votre position. Dans votre application de cartes, touchez le point bleu, puis Partager, et envoyez-la à ce numéro. Ou répondez avec le Plus Code affiché (lettres et chiffres avec un + au milieu).',
  quickReplies: {
    'are-you-safe': 'Êtes-vous en sécurité ?',
    'can-you-talk': 'Pouvez-vous parler ?',
    'stay-on-page': 'Restez sur cette page.',
    'help-on-the-way': 'Les secours sont en route.',
  },
  page: {
    documentTitle: 'Partagez votre position',
    languageSwitcher: 'Langue',
    loading: 'Chargement…',
    loadFailedTitle: "La page n'a pas pu se charger",
    loadFailedBody: 'Vérifiez votre réseau, puis réessayez.',
    tryAgainButton: 'Réessayer',

    requestTitle: 'Partagez votre position',
    requestFrom: (agencyName) => `${agencyName} vous demande votre position.`,
    requestWhy: 'Cela permet aux secours de vous trouver.',
    requestWhat:
      "Si vous acceptez, votre position en temps réel est partagée tant que cette page est ouverte, jusqu'à ce que vous touchiez Arrêter le partage.",
    requestConsent: "Rien n'est partagé avant que vous touchiez le bouton ci-dessous.",
    shareButton: 'Partager ma position',

    startingStatus: 'Recherche de votre position…',
    allowHint: 'Si votre téléphone vous le demande, touchez Autoriser.',
    sharingTitle: 'Votre position est partagée',
    sharingBody:
      'Gardez cette page ouverte. Votre position se met à jour quand vous vous déplacez.',
    accuracy: (meters) => `Précision\u00a0: ±\u00a0${meters}\u00a0m`,
    lastUpdate: (time) => `Dernière mise à jour\u00a0: ${time}`,
    connecting: 'Connexion…',
    connected: 'Connecté',
    reconnecting: 'Connexion perdue. Reconnexion…',
    openInAnotherTab:
      'Ce lien est aussi ouvert dans un autre onglet. Cet onglet se reconnecte quand vous y revenez.',
    stopButton: 'Arrêter le partage',
    positionUnavailable:
      "Votre téléphone ne trouve pas votre position. Vérifiez que la localisation est activée, puis sortez ou approchez-vous d'une fenêtre.",
    positionTimeout:
      "La recherche de votre position prend plus de temps que d'habitude. Gardez cette page ouverte et, si possible, sortez ou approchez-vous d'une fenêtre.",

    stoppedTitle: 'Vous avez arrêté le partage',
    stoppedBody: "Votre position n'est plus partagée.",
    shareAgainButton: 'Partager à nouveau',

    deniedTitle: 'La localisation est bloquée',
    deniedBody:
      "Votre téléphone n'a pas autorisé cette page à utiliser votre position. Pour l'autoriser\u00a0:",
    deniedSteps: {
      ios: [
        'Ouvrez Réglages, puis Confidentialité et sécurité > Service de localisation. Vérifiez que le Service de localisation est activé.',
        "Touchez Sites web Safari et choisissez Lorsque l'app est active.",
        'Revenez sur cette page et touchez Réessayer.',
      ],
      android: [
        "Touchez l'icône à gauche de l'adresse web (un cadenas ou deux curseurs).",
        'Touchez Autorisations, puis Position, et choisissez Autoriser.',
        "Vérifiez que la localisation du téléphone est activée (balayez l'écran du haut vers le bas), puis touchez Réessayer.",
      ],
      other: [
        'Ouvrez les paramètres de votre navigateur pour ce site.',
        "Autorisez l'accès à la position et vérifiez que la localisation est activée dans les réglages du téléphone.",
        'Revenez sur cette page et touchez Réessayer.',
      ],
    },

    unsupportedTitle: 'Ce navigateur ne peut pas partager votre position',
    unsupportedBody:
      'Ouvrez ce lien dans le navigateur principal de votre téléphone, comme Safari ou Chrome.',

    endedTitle: 'Demande terminée',
    endedBody: 'Le répartiteur a mis fin à cette demande. Vous pouvez fermer cette page.',
    expiredTitle: 'Ce lien a expiré',
    expiredBody: 'Les liens de partage de position ne fonctionnent que pendant une durée limitée.',
    optedOutTitle: 'Messages désactivés',
    optedOutBody:
      'Vous avez répondu STOP\u00a0: ce lien ne fonctionne plus et vous ne recevrez plus de messages.',
    invalidTitle: 'Ce lien ne fonctionne pas',
    invalidBody: 'Vérifiez que vous avez ouvert le lien complet reçu par SMS.',
    callForHelp: "Si vous avez encore besoin d'aide, appelez le 911.",
    queuedFixes: (count) =>
      count === 1
        ? '1 position est enregistrée sur ce téléphone. Elle sera envoyée au retour de la connexion.'
        : `${count} positions sont enregistrées sur ce téléphone. Elles seront envoyées au retour de la connexion.`,
    debugTitle: 'Détails techniques',
    yourLocationTitle: 'Votre position',
    readToDispatcher: 'Lisez ceci à l’opérateur',
    plusCodeLabel: 'Code Plus',
    coordinatesLabel: 'Coordonnées',
    takenAt: (time) => `Relevée à ${time}`,
    textFallbackBody: 'Votre position ne passe pas par internet. Un SMS peut passer.',
    sendByTextButton: 'Envoyer ma position par SMS',
    sendByTextHint:
      'Votre application de messages s’ouvre avec le texte prêt\u00a0: appuyez sur Envoyer.',

    chatTitle: 'Discussion avec l’opérateur',
    chatIntro: 'Si vous ne pouvez pas parler, écrivez ici à l’opérateur.',
    chatLogLabel: 'Fil de la discussion',
    chatEmpty: 'Aucun message pour l’instant.',
    chatInputLabel: 'Votre message',
    chatSendButton: 'Envoyer',
    chatFromDispatcher: 'Opérateur',
    chatFromYou: 'Vous',
    chatSending: 'Envoi…',
    chatNotSent: 'Non envoyé',
    chatTranslating: 'Traduction…',
    chatNotTranslated: 'Non traduit',
    chatShowOriginal: 'Voir l’original',
    chatShowTranslation: 'Voir la traduction',
    chatOriginalLabel: 'Texte original',
    mediaVideoRequestTitle: 'Le répartiteur demande à voir votre caméra',
    mediaVideoRequestBody:
      'La vidéo en direct de votre téléphone l’aide à voir ce qui se passe. Rien n’est envoyé si vous ne touchez pas Autoriser, et vous pouvez l’arrêter à tout moment.',
    mediaVideoAudioNote: 'Le son de votre micro est aussi envoyé.',
    mediaPhotoRequestTitle: 'Le répartiteur demande des photos',
    mediaPhotoRequestBody: (max) =>
      `Prenez ou choisissez jusqu’à ${max} photos. Seules les photos choisies sont envoyées.`,
    mediaAllowButton: 'Autoriser',
    mediaDeclineButton: 'Pas maintenant',
    mediaDeclined: 'Vous avez répondu pas maintenant. Le répartiteur en a été informé.',
    cameraOnBanner: 'Caméra allumée : le répartiteur voit votre caméra',
    cameraStarting: 'Démarrage de la caméra…',
    cameraPreviewLabel: 'Ce que montre votre caméra',
    cameraSwitchButton: 'Changer de caméra',
    cameraStopButton: 'Arrêter la vidéo',
    cameraStopped: 'Vidéo arrêtée.',
    cameraBlocked:
      'Votre téléphone n’a pas permis à cette page d’utiliser la caméra. Autorisez la caméra dans les réglages du navigateur pour ce site.',
    cameraStills:
      'Votre connexion est lente : une image de la caméra est envoyée toutes les quelques secondes au lieu de la vidéo.',
    photoPickButton: 'Prendre ou choisir des photos',
    photoListLabel: 'Vos photos',
    photoSending: (percent) => `Envoi… ${percent}\u00a0%`,
    photoSent: 'Envoyée',
    photoNotSent: 'Non envoyée',
    photoNetworkError: 'Pas de connexion. Réessayez.',
    photoNotImage: 'Ce fichier n’est pas une photo.',
    photoTooMany: (max) =>
      `Vous pouvez envoyer jusqu’à ${max} photos. Les autres n’ont pas été prises.`,
    photoDoneButton: 'Terminé',
  },
};

// Simplified Chinese. STOP, HELP, 911, Safari and App stay in Latin letters, as on the phone.
const zh: CallerTexts = {
  languageName: '中文',
  locale: 'zh-CN',
  // A space after the link, so that no app reads the Chinese text as part of the address.
  sms: ({ agencyName, link }) =>
    `${agencyName} 请您分享当前位置：${link} 回复HELP获取帮助，回复STOP退订。`,
  smsHelpReply:
    'Locus：本号码代表紧急服务机构发送位置请求。如需紧急帮助，请拨打911。回复STOP即可不再接收短信。',
  smsStopReply: 'Locus：您将不再收到本号码的短信，已收到的链接也已失效。如需帮助，请拨打911。',
  smsAskLocation:
    'Locus：请回复您的位置。在地图应用中点按蓝色圆点，再点“分享”，发送到本号码。或回复地图应用显示的 Plus Code（由字母和数字组成，中间有一个 +）。',
  quickReplies: {
    'are-you-safe': '您安全吗？',
    'can-you-talk': '您现在方便说话吗？',
    'stay-on-page': '请留在此页面。',
    'help-on-the-way': '救援人员正在赶来。',
  },
  page: {
    documentTitle: '分享您的位置',
    languageSwitcher: '语言',
    loading: '正在加载…',
    loadFailedTitle: '页面加载失败',
    loadFailedBody: '请检查手机信号，然后重试。',
    tryAgainButton: '重试',

    requestTitle: '分享您的位置',
    requestFrom: (agencyName) => `${agencyName} 请求获取您的位置。`,
    requestWhy: '这样救援人员才能找到您。',
    requestWhat: '如果您同意，在此页面打开期间，您的实时位置将持续分享，直到您点按“停止分享”。',
    requestConsent: '在您点按下方按钮之前，不会分享任何信息。',
    shareButton: '分享我的位置',

    startingStatus: '正在获取您的位置…',
    allowHint: '如果手机询问，请点按“允许”。',
    sharingTitle: '正在分享您的位置',
    sharingBody: '请保持此页面打开。您移动时，位置会随之更新。',
    accuracy: (meters) => `精度：±\u00a0${meters}\u00a0米`,
    lastUpdate: (time) => `最后更新：${time}`,
    connecting: '正在连接…',
    connected: '已连接',
    reconnecting: '连接已断开，正在重新连接…',
    openInAnotherTab: '此链接也在另一个标签页中打开。回到此标签页时，它会重新连接。',
    stopButton: '停止分享',
    positionUnavailable: '手机无法获取您的位置。请确认定位已开启，然后到室外或靠近窗户。',
    positionTimeout: '获取位置的时间比平时长。请保持此页面打开，如有可能，请到室外或靠近窗户。',

    stoppedTitle: '您已停止分享',
    stoppedBody: '您的位置已不再分享。',
    shareAgainButton: '重新分享',

    deniedTitle: '位置权限已被阻止',
    deniedBody: '您的手机未允许此页面使用您的位置。请按以下步骤开启：',
    deniedSteps: {
      ios: [
        '打开“设置”，前往“隐私与安全性”>“定位服务”，确认“定位服务”已打开。',
        '点按“Safari浏览器网站”，选择“使用App期间”。',
        '返回此页面，点按“重试”。',
      ],
      android: [
        '点按网址左侧的图标（锁形或两条滑块）。',
        '点按“权限”>“位置信息”，然后选择“允许”。',
        '确认手机的位置信息已开启（从屏幕顶部向下滑动），然后点按“重试”。',
      ],
      other: [
        '打开浏览器中此网站的设置。',
        '允许使用位置信息，并确认手机设置中的定位已开启。',
        '返回此页面，点按“重试”。',
      ],
    },

    unsupportedTitle: '此浏览器无法分享位置',
    unsupportedBody: '请用手机自带的浏览器（如 Safari 或 Chrome）打开此链接。',

    endedTitle: '请求已结束',
    endedBody: '调度员已结束此请求。您可以关闭此页面。',
    expiredTitle: '此链接已过期',
    expiredBody: '位置分享链接仅在有限时间内有效。',
    optedOutTitle: '已停止接收短信',
    optedOutBody: '您已回复STOP，此链接已失效，您也不会再收到短信。',
    invalidTitle: '此链接无效',
    invalidBody: '请确认您打开的是短信中的完整链接。',
    callForHelp: '如仍需帮助，请拨打911。',
    queuedFixes: (count) => `已在本机保存 ${count} 个位置，连接恢复后将自动发送。`,
    debugTitle: '技术详情',
    yourLocationTitle: '您的位置',
    readToDispatcher: '请把以下内容读给接警员',
    plusCodeLabel: '位置代码',
    coordinatesLabel: '坐标',
    takenAt: (time) => `获取时间：${time}`,
    textFallbackBody: '您的位置无法通过网络发送，短信可能可以送达。',
    sendByTextButton: '用短信发送我的位置',
    sendByTextHint: '短信应用会打开并填好内容：只需点按“发送”。',

    chatTitle: '与接警员对话',
    chatIntro: '如果您不方便说话，可以在这里给接警员发消息。',
    chatLogLabel: '消息记录',
    chatEmpty: '暂无消息。',
    chatInputLabel: '您的消息',
    chatSendButton: '发送',
    chatFromDispatcher: '接警员',
    chatFromYou: '您',
    chatSending: '正在发送…',
    chatNotSent: '未发送',
    chatTranslating: '正在翻译…',
    chatNotTranslated: '未翻译',
    chatShowOriginal: '查看原文',
    chatShowTranslation: '查看译文',
    chatOriginalLabel: '原文',
    mediaVideoRequestTitle: '调度员请求查看您的摄像头',
    mediaVideoRequestBody:
      '手机的实时视频能帮助调度员了解现场情况。除非您点按“允许”，否则不会发送任何内容，您也可以随时停止。',
    mediaVideoAudioNote: '麦克风的声音也会一起发送。',
    mediaPhotoRequestTitle: '调度员请求照片',
    mediaPhotoRequestBody: (max) => `拍摄或选择最多 ${max} 张照片。只会发送您选择的照片。`,
    mediaAllowButton: '允许',
    mediaDeclineButton: '暂不',
    mediaDeclined: '您选择了暂不。已告知调度员。',
    cameraOnBanner: '摄像头已开启：调度员可以看到您的摄像头画面',
    cameraStarting: '正在开启摄像头…',
    cameraPreviewLabel: '您的摄像头画面',
    cameraSwitchButton: '切换摄像头',
    cameraStopButton: '停止视频',
    cameraStopped: '视频已停止。',
    cameraBlocked: '您的手机不允许此页面使用摄像头。请在浏览器的网站设置中允许使用摄像头。',
    cameraStills: '您的网络较慢：改为每隔几秒发送一张摄像头画面，而不是视频。',
    photoPickButton: '拍摄或选择照片',
    photoListLabel: '您的照片',
    photoSending: (percent) => `正在发送… ${percent}\u00a0%`,
    photoSent: '已发送',
    photoNotSent: '未发送',
    photoNetworkError: '没有网络连接。请重试。',
    photoNotImage: '此文件不是照片。',
    photoTooMany: (max) => `最多可以发送 ${max} 张照片。其余的未包含在内。`,
    photoDoneButton: '完成',
  },
};

/**
 * The one catalogue of everything a caller reads, from the text message to the page, in the
 * four languages of SPEC.md §9. STOP and HELP stay in Latin letters everywhere: carriers match
 * them. The product is US-first: every language says to call 911.
 */
export const callerTexts: Record<SmsLanguage, CallerTexts> = { en, es, fr, zh };

/**
 * The caller language a browser prefers, from an `Accept-Language` header (or
 * `navigator.languages.join(',')`): the highest-weighted supported one, English when none is.
 * Any Chinese (zh-TW, zh-Hant…) maps to the Simplified Chinese texts.
 */
export function callerLanguageFromAcceptLanguage(header: string | null | undefined): SmsLanguage {
  let best: SmsLanguage = 'en';
  let bestWeight = 0;
  for (const part of (header ?? '').split(',')) {
    const [range = '', ...params] = part.split(';');
    const primary = range.trim().toLowerCase().split('-')[0];
    const language = smsLanguages.find((code) => code === primary);
    if (!language) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    // Ties keep the earlier entry, as the header lists them in order of preference.
    if (Number.isFinite(weight) && weight > bestWeight) {
      best = language;
      bestWeight = weight;
    }
  }
  return best;
}
