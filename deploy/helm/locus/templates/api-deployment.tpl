apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "locus.fullname" . }}-api
  labels:
    {{- include "locus.labels" . | nindent 4 }}
    app.kubernetes.io/component: api
spec:
  {{- if not .Values.api.autoscaling.enabled }}
  replicas: {{ .Values.api.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      # Never fewer ready instances than asked for: dispatchers move to the others, never to none.
      maxUnavailable: 0
      maxSurge: 1
  selector:
    matchLabels:
      {{- include "locus.selectorLabels" (list . "api") | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "locus.labels" . | nindent 8 }}
        app.kubernetes.io/component: api
      {{- with .Values.api.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      serviceAccountName: {{ include "locus.serviceAccountName" . }}
      automountServiceAccountToken: false
      {{- with .Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- toYaml .Values.podSecurityContext | nindent 8 }}
      terminationGracePeriodSeconds: {{ .Values.api.terminationGracePeriodSeconds }}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "locus.selectorLabels" (list . "api") | nindent 14 }}
      containers:
        - name: api
          image: {{ include "locus.image" . }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          command: ['node', '--import', 'tsx', 'services/api/src/main.ts']
          ports:
            - name: http
              containerPort: {{ .Values.api.port }}
              protocol: TCP
          env:
            - name: HOST
              value: 0.0.0.0
            - name: PORT
              value: {{ .Values.api.port | quote }}
            {{- include "locus.env" . | trim | nindent 12 }}
          envFrom:
            {{- include "locus.envFrom" . | nindent 12 }}
          # Out of rotation while this instance cannot reach Postgres or Redis.
          readinessProbe:
            httpGet:
              path: /api/v1/health
              port: http
            periodSeconds: {{ .Values.api.readinessProbe.periodSeconds }}
            timeoutSeconds: {{ .Values.api.readinessProbe.timeoutSeconds }}
            failureThreshold: {{ .Values.api.readinessProbe.failureThreshold }}
          # This process only: an outage of Postgres or Redis must never restart the pods.
          livenessProbe:
            httpGet:
              path: /api/v1/health/live
              port: http
            periodSeconds: {{ .Values.api.livenessProbe.periodSeconds }}
            timeoutSeconds: {{ .Values.api.livenessProbe.timeoutSeconds }}
            failureThreshold: {{ .Values.api.livenessProbe.failureThreshold }}
          startupProbe:
            httpGet:
              path: /api/v1/health/live
              port: http
            periodSeconds: {{ .Values.api.startupProbe.periodSeconds }}
            failureThreshold: {{ .Values.api.startupProbe.failureThreshold }}
          lifecycle:
            # Keep serving until the endpoint removal has reached the ingress, then SIGTERM:
            # the API finishes the callers' fixes (SHUTDOWN_TIMEOUT_MS) and closes the sockets,
            # whose clients reconnect to another instance and replay.
            preStop:
              exec:
                command: ['sleep', {{ .Values.api.preStopSleepSeconds | quote }}]
          resources:
            {{- toYaml .Values.api.resources | nindent 12 }}
          securityContext:
            {{- toYaml .Values.securityContext | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir: {}
      {{- with .Values.api.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.api.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.api.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
